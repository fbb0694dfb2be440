import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { EntriesEnvelopeSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface EntryListParams {
  page: number;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
}

/** The caller's own runs, newest first, one page at a time. */
export async function getEntries(params: EntryListParams, signal?: AbortSignal) {
  const result = await api.get('/entry', EntriesEnvelopeSchema, { query: { ...params }, signal });
  return result.entries;
}

export const entriesQueryOptions = (params: EntryListParams) =>
  queryOptions({
    queryKey: queryKeys.entryList('mine', params),
    queryFn: ({ signal }) => getEntries(params, signal),
    placeholderData: keepPreviousData,
  });

export const useEntries = (params: EntryListParams) => useQuery(entriesQueryOptions(params));
