import { queryOptions, useQuery } from '@tanstack/react-query';
import { AppConfigSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getAppConfig = () => api.get('/app-config', AppConfigSchema);

export const appConfigQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.appConfig, queryFn: getAppConfig, staleTime: Infinity });

export const useAppConfig = () => useQuery(appConfigQueryOptions());
