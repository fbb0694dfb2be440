import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { EntriesEnvelopeSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The runs of one of the runner's shoes, newest first, one page at a time. */
export async function getShoeEntries(shoeId: number, page: number, signal?: AbortSignal) {
  const result = await api.get(`/shoes/${shoeId}/entries`, EntriesEnvelopeSchema, { query: { page }, signal });
  return result.entries;
}

export const shoeEntriesQueryOptions = (shoeId: number, page: number) =>
  queryOptions({
    queryKey: queryKeys.entryList('mine', { shoeId, page }),
    queryFn: ({ signal }) => getShoeEntries(shoeId, page, signal),
    placeholderData: keepPreviousData,
  });

export const useShoeEntries = (shoeId: number, page: number) => useQuery(shoeEntriesQueryOptions(shoeId, page));
