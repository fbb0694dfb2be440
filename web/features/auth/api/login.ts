import type { LoginBody } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { parseLoginAnswer } from '../../../lib/response-guards';
import { useSessionRequest } from './session-request';

export const login = (body: LoginBody) => api.post('/auth/login', parseLoginAnswer, body);

/** Signs in; a user with two-factor sign-in on gets `onChallenge` instead, for the code step (§21). */
export function useLogin({
  onSuccess,
  onChallenge,
}: { onSuccess?: () => void; onChallenge?: (challenge: string) => void } = {}) {
  return useSessionRequest(login, onSuccess, onChallenge);
}
