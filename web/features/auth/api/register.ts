import type { RegisterBody } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { parseAuthResponse, parseMessage, parseUser } from '../../../lib/response-guards';
import { useSessionRequest } from './session-request';

/**
 * A registration's answer: signed in, or (SIGNUP=verify or approval, CONTRACT.md §21) the account
 * and what comes next, without a token.
 */
function parseRegistered(value: unknown) {
  if (typeof value === 'object' && value !== null && !('access_token' in value)) {
    return { user: parseUser((value as { user: unknown }).user), message: parseMessage(value).message };
  }
  return parseAuthResponse(value);
}

/** Registers with the browser's time zone, so that "this week" means the runner's week. */
export const register = (input: Omit<RegisterBody, 'timezone'>) =>
  api.post('/auth/register', parseRegistered, {
    ...input,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });

export function useRegister({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useSessionRequest(register, onSuccess);
}
