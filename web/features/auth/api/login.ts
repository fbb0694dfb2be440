import type { LoginBody } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { parseLoginAnswer } from '../../../lib/response-guards';
import { useSessionRequest } from './session-request';

/** Where a single sign-on that waits for the account's password keeps its code (§21). */
export const OIDC_LINK = 'oidc_link';

// The server links with it only when it is this account's and still valid, and ignores it otherwise.
export const login = (body: LoginBody) =>
  api.post('/auth/login', parseLoginAnswer, { ...body, oidc_link: sessionStorage.getItem(OIDC_LINK) ?? undefined });

/** Signs in; a user with two-factor sign-in on gets `onChallenge` instead, for the code step (§21). */
export function useLogin({
  onSuccess,
  onChallenge,
}: { onSuccess?: () => void; onChallenge?: (challenge: string) => void } = {}) {
  return useSessionRequest(login, onSuccess, onChallenge);
}
