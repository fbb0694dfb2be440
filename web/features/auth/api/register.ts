import type { RegisterBody } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { parseAuthResponse } from '../../../lib/response-guards';
import { useSessionRequest } from './session-request';

/** Registers with the browser's time zone, so that "this week" means the runner's week. */
export const register = (input: Omit<RegisterBody, 'timezone'>) =>
  api.post('/auth/register', parseAuthResponse, {
    ...input,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });

export function useRegister({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useSessionRequest(register, onSuccess);
}
