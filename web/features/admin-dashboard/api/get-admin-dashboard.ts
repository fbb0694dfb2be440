import { queryOptions, useQuery } from '@tanstack/react-query';
import { AdminDashboardSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getAdminDashboard = (signal?: AbortSignal) =>
  api.get('/dashboard/admin-data', AdminDashboardSchema, { signal });

export const adminDashboardQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.adminDashboard, queryFn: ({ signal }) => getAdminDashboard(signal) });

export const useAdminDashboard = () => useQuery(adminDashboardQueryOptions());
