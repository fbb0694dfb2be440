import type { LoginBody } from '../../../../core/schemas.js';
import { api, fieldErrorsOf } from '../../../lib/api-client';
import { parseLoginAnswer } from '../../../lib/response-guards';
import { useSessionRequest } from './session-request';

/** Where a single sign-on that waits for the password keeps its code until a login used it (§21). */
export const OIDC_LINK = 'oidc_link';

export function login(body: LoginBody) {
  const oidc_link = sessionStorage.getItem(OIDC_LINK) ?? undefined;
  const done = () => sessionStorage.removeItem(OIDC_LINK);
  return api.post('/auth/login', parseLoginAnswer, { ...body, oidc_link }).then(
    (answer) => (done(), answer),
    (error: unknown) => {
      // A spent or stale code is not sent again; a wrong password keeps it for the next try.
      if (fieldErrorsOf(error).oidc_link) done();
      throw error;
    },
  );
}

/** Signs in; a user with two-factor sign-in on gets `onChallenge` instead, for the code step (§21). */
export function useLogin({
  onSuccess,
  onChallenge,
}: { onSuccess?: () => void; onChallenge?: (challenge: string) => void } = {}) {
  return useSessionRequest(login, onSuccess, onChallenge);
}
