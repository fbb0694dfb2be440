import { queryOptions, useQuery } from '@tanstack/react-query';
import { EntryEnvelopeSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getEntry(id: number, signal?: AbortSignal) {
  const result = await api.get(`/entry/${id}`, EntryEnvelopeSchema, { signal });
  return result.entry;
}

export const entryQueryOptions = (id: number) =>
  queryOptions({ queryKey: queryKeys.entry(id), queryFn: ({ signal }) => getEntry(id, signal) });

export const useEntry = (id: number) => useQuery(entryQueryOptions(id));
