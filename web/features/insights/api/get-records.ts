import { queryOptions, useQuery } from '@tanstack/react-query';
import { RecordsEnvelopeSchema } from '../../../../core/insights.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getRecords(signal?: AbortSignal) {
  return (await api.get('/insights/records', RecordsEnvelopeSchema, { signal })).records;
}

/** Kept until runs change (invalidateRunData refreshes every insight). */
export const recordsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.insight('records'),
    queryFn: ({ signal }) => getRecords(signal),
    staleTime: Infinity,
  });

export const useRecords = () => useQuery(recordsQueryOptions());
