import { queryOptions, useQuery } from '@tanstack/react-query';
import { GoalsEnvelopeSchema } from '../../../../core/goals.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getGoals(signal?: AbortSignal) {
  const result = await api.get('/goals', GoalsEnvelopeSchema, { signal });
  return result.goals;
}

export const goalsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.goals, queryFn: ({ signal }) => getGoals(signal) });

/** The runner's goals with this period's progress and the 12 before it. */
export const useGoals = () => useQuery(goalsQueryOptions());
