import { queryOptions, useQuery } from '@tanstack/react-query';
import { StreaksEnvelopeSchema } from '../../../../core/insights.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getStreaks(signal?: AbortSignal) {
  return (await api.get('/insights/streaks', StreaksEnvelopeSchema, { signal })).streaks;
}

/** Kept until runs change (invalidateRunData refreshes every insight). */
export const streaksQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.insight('streaks'),
    queryFn: ({ signal }) => getStreaks(signal),
    staleTime: Infinity,
  });

export const useStreaks = () => useQuery(streaksQueryOptions());
