import { queryOptions, useQuery } from '@tanstack/react-query';
import { LoadEnvelopeSchema } from '../../../../core/insights.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Training load at a date (default: today in the runner's zone). */
export async function getLoad(date?: string, signal?: AbortSignal) {
  return (await api.get('/insights/load', LoadEnvelopeSchema, { query: { date }, signal })).load;
}

export const loadQueryOptions = (date?: string) =>
  queryOptions({
    queryKey: queryKeys.insight('load', date ?? 'today'),
    queryFn: ({ signal }) => getLoad(date, signal),
    staleTime: Infinity,
  });

export const useLoad = (date?: string) => useQuery(loadQueryOptions(date));
