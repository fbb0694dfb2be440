import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RegisterBody } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { parseAuthResponse } from '../../../lib/response-guards';
import { startSession } from './get-me';

/** Registers with the browser's time zone, so that "this week" means the runner's week. */
export const register = (input: Omit<RegisterBody, 'timezone'>) =>
  api.post('/auth/register', parseAuthResponse, {
    ...input,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });

export function useRegister({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (result) => {
      startSession(queryClient, result.access_token, result.user);
      onSuccess?.();
    },
  });
}
