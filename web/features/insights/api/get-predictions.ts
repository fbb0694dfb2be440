import { queryOptions, useQuery } from '@tanstack/react-query';
import { PredictionsEnvelopeSchema } from '../../../../core/insights.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getPredictions(signal?: AbortSignal) {
  return (await api.get('/insights/predictions', PredictionsEnvelopeSchema, { signal })).predictions;
}

/** Kept until runs change (invalidateRunData refreshes every insight). */
export const predictionsQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.insight('predictions'),
    queryFn: ({ signal }) => getPredictions(signal),
    staleTime: Infinity,
  });

export const usePredictions = () => useQuery(predictionsQueryOptions());
