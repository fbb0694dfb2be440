import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { User } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { parseUser } from '../../../lib/response-guards';
import { tokenStorage } from '../../../lib/token-storage';

/**
 * The session check (SPEC §4): with a stored token, GET /user/me. A failed check
 * clears the token silently and leaves the visitor anonymous (`null`).
 */
export async function getMe(): Promise<User | null> {
  if (!tokenStorage.get()) return null;
  try {
    return await api.get('/user/me', parseUser);
  } catch {
    tokenStorage.clear();
    return null;
  }
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.me,
    queryFn: getMe,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });

/** Resolves the current user, checking the session once (later calls use the cache). */
export function ensureSession(queryClient: QueryClient): Promise<User | null> {
  return queryClient.ensureQueryData(meQueryOptions());
}

/** The current user, or null for a visitor. */
export function useUser(): User | null {
  return useQuery(meQueryOptions()).data ?? null;
}

/** Stores a new session (login, registration). */
export function startSession(queryClient: QueryClient, token: string, user: User): void {
  tokenStorage.set(token);
  queryClient.setQueryData(queryKeys.me, user);
}

/** Forgets the session and every cached answer that belonged to it. */
export function endSession(queryClient: QueryClient): void {
  tokenStorage.clear();
  const notMe = { predicate: (query: { queryKey: readonly unknown[] }) => query.queryKey[0] !== queryKeys.me[0] };
  void queryClient.cancelQueries(notMe);
  queryClient.removeQueries(notMe);
  queryClient.setQueryData(queryKeys.me, null);
}
