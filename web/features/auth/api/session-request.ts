import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AuthResponse, User } from '../../../../core/schemas.js';
import { startSession } from './get-me';

/** A login's answer for a user with two-factor sign-in on (core/two-factor.ts `TwoFactorRequired`). */
export interface ChallengeAnswer {
  two_factor_required: true;
  challenge: string;
}

/**
 * Login and registration: a mutation of the app's query client, run through its MutationCache (so
 * a failure reaches the one error handler, SPEC §8, as every mutation's does), that starts the
 * session it answers with. Not TanStack's `useMutation`: its observer would be 1 KiB gzipped of the
 * guest screens' first load (decision 012's budget); this hook gives the same `mutate`,
 * `isPending` and `error` in a few lines.
 */
export function useSessionRequest<Body>(
  request: (body: Body) => Promise<AuthResponse | ChallengeAnswer | { user: User; message: string }>,
  onSuccess?: () => void,
  onChallenge?: (challenge: string) => void,
) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ isPending: boolean; error: Error | null; waiting?: string }>({
    isPending: false,
    error: null,
  });
  const mutate = (body: Body) => {
    setState({ isPending: true, error: null });
    queryClient
      .getMutationCache()
      .build(queryClient, { mutationFn: request })
      .execute(body)
      .then(
        (result) => {
          // Two-factor sign-in (§21): the password was right, a code comes next; no session yet.
          if ('two_factor_required' in result) {
            setState({ isPending: false, error: null });
            return onChallenge?.(result.challenge);
          }
          // An account that waits (a confirmation link, an admin's approval): no session, what comes next.
          if (!('access_token' in result)) return setState({ isPending: false, error: null, waiting: result.message });
          setState({ isPending: false, error: null });
          startSession(queryClient, result.access_token, result.user);
          onSuccess?.();
        },
        (error: unknown) =>
          setState({ isPending: false, error: error instanceof Error ? error : new Error(String(error)) }),
      );
  };
  return { mutate, ...state };
}
