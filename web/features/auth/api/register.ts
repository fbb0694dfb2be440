import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAuthResponse } from '../../../lib/response-guards';
import { startSession } from './get-me';

export interface RegisterInput {
  name: string;
  email: string;
  password: string;
  password_confirmation: string;
}

/** Registers with the browser's time zone, so that "this week" means the runner's week. */
export const register = (input: RegisterInput) =>
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
