import { queryOptions, useQuery } from '@tanstack/react-query';
import { RouteEnvelopeSchema, RoutesEnvelopeSchema } from '../../../../core/routes/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { FILLING_IN_POLL_MS } from './get-segments';

/** The runner's routes, newest last run first (CONTRACT.md §22). */
export async function getRouteList(signal?: AbortSignal) {
  return (await api.get('/routes', RoutesEnvelopeSchema, { signal })).routes;
}

export async function getRoute(id: number, signal?: AbortSignal) {
  return (await api.get(`/routes/${id}`, RouteEnvelopeSchema, { signal })).route;
}

/** Routes carry `matching` too: while one is regrouping its runs, its answers are asked for again. */
export const routeListQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.routes,
    queryFn: ({ signal }) => getRouteList(signal),
    refetchInterval: (query) => (query.state.data?.some((route) => route.matching) ? FILLING_IN_POLL_MS : false),
  });

export const routeQueryOptions = (id: number) =>
  queryOptions({
    queryKey: queryKeys.route(id),
    queryFn: ({ signal }) => getRoute(id, signal),
    refetchInterval: (query) => (query.state.data?.matching ? FILLING_IN_POLL_MS : false),
  });

export const useRouteList = () => useQuery(routeListQueryOptions());
export const useRoute = (id: number, { enabled = true } = {}) => useQuery({ ...routeQueryOptions(id), enabled });
