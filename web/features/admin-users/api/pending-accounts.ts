/** Accounts waiting for approval and invitations (CONTRACT.md §21). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { invalidateUserData } from '../../../lib/query-keys';
import { parseUser } from '../../../lib/response-guards';

const PENDING_KEY = ['users', 'pending'] as const;

const parseUsers = (json: unknown) => {
  const users = (json as { users?: unknown }).users;
  if (!Array.isArray(users)) throw new Error('pending users: users is not a list');
  return users.map((user, i) => parseUser(user, `users[${i}]`));
};

/** GET /user/pending: oldest first. */
export const usePendingAccounts = () =>
  useQuery({ queryKey: PENDING_KEY, queryFn: () => api.get('/user/pending', parseUsers) });

/** POST /user/{id}/approve. */
export function useApprove() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api.post(`/user/${id}/approve`, (json: unknown) => parseUser((json as { user: unknown }).user)),
    onSuccess: () => invalidateUserData(queryClient),
  });
}

/** POST /invitations: a mail with a link valid 7 days. */
export const useInvite = () =>
  useMutation({
    mutationFn: (input: { email: string; role: Role }) =>
      api.post('/invitations', (json: unknown) => json as { invitation: { email: string } }, { ...input }),
  });
