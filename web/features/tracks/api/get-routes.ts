import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { RoutesEnvelopeSchema } from '../../../../core/tracks/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Every tracked run's route of a calendar year, or of all years with `null` (CONTRACT.md §16). */
export async function getRoutes(year: number | null, signal?: AbortSignal) {
  return (await api.get('/insights/routes', RoutesEnvelopeSchema, { query: { year }, signal })).routes;
}

/** Kept until runs change (invalidateRunData refreshes every insight); the last year's map stays while the next loads. */
export const routesQueryOptions = (year: number | null) =>
  queryOptions({
    queryKey: queryKeys.insight('routes', year ?? 'all'),
    queryFn: ({ signal }) => getRoutes(year, signal),
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });

export const useRoutes = (year: number | null) => useQuery(routesQueryOptions(year));
