import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { User } from '../../../../core/schemas.js';
import { api, ApiError } from '../../../lib/api-client';
import { sessionKeys } from '../../../lib/session-keys';
import { parseUser } from '../../../lib/response-guards';
import { tokenStorage } from '../../../lib/token-storage';

/**
 * The signed-in user as the last check found them, kept with the token so that the app starts
 * without a network (CONTRACT.md §20, decision 047): only this session's own user, forgotten with it.
 */
const LAST_USER_KEY = 'rt-session-user';

const lastUser = {
  get(token: string): User | null {
    try {
      const kept = JSON.parse(window.localStorage.getItem(LAST_USER_KEY) ?? 'null') as {
        token: string;
        user: User;
      } | null;
      return kept?.token === token ? kept.user : null;
    } catch {
      return null;
    }
  },
  set(token: string, user: User | null): void {
    try {
      if (user) window.localStorage.setItem(LAST_USER_KEY, JSON.stringify({ token, user }));
      else window.localStorage.removeItem(LAST_USER_KEY);
    } catch {
      // Storage refused: the app then needs the network to start.
    }
  },
};

/**
 * The session check (SPEC §4): with a stored token, GET /user/me. A refused check clears the token
 * silently and leaves the visitor anonymous (`null`); without an answer (no network) the user the
 * last check found with this token is still signed in.
 */
export async function getMe(): Promise<User | null> {
  const token = tokenStorage.get();
  if (!token) return null;
  try {
    const user = await api.get('/user/me', parseUser);
    lastUser.set(token, user);
    return user;
  } catch (error) {
    const kept = lastUser.get(token);
    if (error instanceof ApiError && error.status === 0 && kept) return kept;
    tokenStorage.clear();
    lastUser.set(token, null);
    return null;
  }
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: sessionKeys.me,
    queryFn: getMe,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    // Offline too: the check then answers the kept user at once instead of waiting for a network.
    networkMode: 'always',
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
  lastUser.set(token, user);
  queryClient.setQueryData(sessionKeys.me, user);
}

/** Forgets the session and every cached answer that belonged to it. */
export function endSession(queryClient: QueryClient): void {
  lastUser.set('', null);
  tokenStorage.clear();
  const notMe = { predicate: (query: { queryKey: readonly unknown[] }) => query.queryKey[0] !== sessionKeys.me[0] };
  void queryClient.cancelQueries(notMe);
  queryClient.removeQueries(notMe);
  queryClient.setQueryData(sessionKeys.me, null);
}
