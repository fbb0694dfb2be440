import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { UsersEnvelopeSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UserListParams {
  page: number;
  query?: string | undefined;
}

export async function getUsers(params: UserListParams, signal?: AbortSignal) {
  const result = await api.get('/user', UsersEnvelopeSchema, { query: { ...params }, signal });
  return result.users;
}

export const usersQueryOptions = (params: UserListParams) =>
  queryOptions({
    queryKey: queryKeys.userList(params),
    queryFn: ({ signal }) => getUsers(params, signal),
    placeholderData: keepPreviousData,
  });

export const useUsers = (params: UserListParams) => useQuery(usersQueryOptions(params));
