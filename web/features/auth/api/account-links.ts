/** The mailed links of CONTRACT.md §21: ask for a reset link, and follow each kind of link. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAuthResponse, parseMessage, parseUser } from '../../../lib/response-guards';
import { startSession } from './get-me';

/** POST /auth/forgot: the same answer whether or not the account exists. */
export const forgotPassword = (email: string) => api.post('/auth/forgot', parseMessage, { email });

/** POST /auth/reset: a new password with the token of a reset link. */
export const resetPassword = (input: { token: string; password: string; password_confirmation: string }) =>
  api.post('/auth/reset', parseMessage, { ...input });

/** POST /auth/confirm-email: the pending e-mail of the link becomes the account's. */
export const confirmEmail = (token: string) =>
  api.post('/auth/confirm-email', (json: unknown) => parseUser((json as { user: unknown }).user), { token });

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
export const useConfirmEmail = () => useMutation({ mutationFn: confirmEmail });

/** POST /auth/verify and /auth/accept-invitation answer like a login: the session starts. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.post('/auth/verify', parseAuthResponse, { token }),
    onSuccess: (auth) => startSession(queryClient, auth.access_token, auth.user),
  });
}

export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { token: string; name: string; password: string; password_confirmation: string }) =>
      api.post('/auth/accept-invitation', parseAuthResponse, {
        ...input,
        timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      }),
    onSuccess: (auth) => startSession(queryClient, auth.access_token, auth.user),
  });
}

/** The token of a mailed link: in the URL's fragment (`#token=...`), never sent to the server by the browser. */
export function tokenOfFragment(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token');
}
