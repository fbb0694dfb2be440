import { queryOptions, useQuery } from '@tanstack/react-query';
import { DashboardSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getDashboard = (signal?: AbortSignal) => api.get('/dashboard/data', DashboardSchema, { signal });

export const dashboardQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.dashboard, queryFn: ({ signal }) => getDashboard(signal) });

export const useDashboard = () => useQuery(dashboardQueryOptions());
