import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { parseAppConfig } from '../../../lib/response-guards';

export const getAppConfig = () => api.get('/app-config', parseAppConfig);

export const appConfigQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.appConfig, queryFn: getAppConfig, staleTime: Infinity });

export const useAppConfig = () => useQuery(appConfigQueryOptions());
