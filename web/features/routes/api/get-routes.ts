import { queryOptions, useQuery } from '@tanstack/react-query';
import { RouteEnvelopeSchema, RoutesListEnvelopeSchema } from '../../../../core/routes/answers.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The runner's routes, newest last run first (CONTRACT.md §22). */
export async function getRouteList(signal?: AbortSignal) {
  return (await api.get('/routes', RoutesListEnvelopeSchema, { signal })).routes;
}

export async function getRoute(id: number, signal?: AbortSignal) {
  return (await api.get(`/routes/${id}`, RouteEnvelopeSchema, { signal })).route;
}

export const routeListQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.routes, queryFn: ({ signal }) => getRouteList(signal) });

export const routeQueryOptions = (id: number) =>
  queryOptions({ queryKey: queryKeys.route(id), queryFn: ({ signal }) => getRoute(id, signal) });

export const useRouteList = () => useQuery(routeListQueryOptions());
export const useRoute = (id: number, { enabled = true } = {}) => useQuery({ ...routeQueryOptions(id), enabled });
