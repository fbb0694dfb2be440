import { queryOptions, useQuery } from '@tanstack/react-query';
import { UserEnvelopeSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getUser(id: number, signal?: AbortSignal) {
  const result = await api.get(`/user/${id}`, UserEnvelopeSchema, { signal });
  return result.user;
}

export const userQueryOptions = (id: number) =>
  queryOptions({ queryKey: queryKeys.user(id), queryFn: ({ signal }) => getUser(id, signal) });

export const useUserDetails = (id: number) => useQuery(userQueryOptions(id));
