import { useState } from 'react';
import type { AuthResponse } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { parseAuthResponse } from '../../../lib/response-guards';

/** POST /auth/two-factor: the login's second step, answered like a login. */
export const signInWithCode = (body: { challenge: string; code: string }) =>
  api.post('/auth/two-factor', parseAuthResponse, body);

/**
 * The code step's request. Not TanStack's `useMutation`, nor zod: the step is a chunk of /login,
 * loaded when a login asks for a code, and stays small (decision 012); its errors show in the form.
 */
export function useSignInWithCode(onSignedIn: (answer: AuthResponse) => void) {
  const [state, setState] = useState<{ isPending: boolean; error: Error | null }>({ isPending: false, error: null });
  const mutate = (body: { challenge: string; code: string }) => {
    setState({ isPending: true, error: null });
    signInWithCode(body).then(
      (answer) => {
        setState({ isPending: false, error: null });
        onSignedIn(answer);
      },
      (error: unknown) =>
        setState({ isPending: false, error: error instanceof Error ? error : new Error(String(error)) }),
    );
  };
  return { mutate, ...state };
}
