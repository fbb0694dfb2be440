import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { sessionKeys } from '../../../lib/session-keys';
import { parseAppConfig } from '../../../lib/response-guards';

export const getAppConfig = () => api.get('/app-config', parseAppConfig);

export const appConfigQueryOptions = () =>
  queryOptions({ queryKey: sessionKeys.appConfig, queryFn: getAppConfig, staleTime: Infinity });

export const useAppConfig = () => useQuery(appConfigQueryOptions());
