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

/** One run; `enabled: false` asks nothing (an id that cannot be one). */
export const useEntry = (id: number, { enabled = true }: { enabled?: boolean } = {}) =>
  useQuery({ ...entryQueryOptions(id), enabled });
