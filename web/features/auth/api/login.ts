import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginBody } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { parseAuthResponse } from '../../../lib/response-guards';
import { startSession } from './get-me';

export const login = (body: LoginBody) => api.post('/auth/login', parseAuthResponse, body);

export function useLogin({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (result) => {
      startSession(queryClient, result.access_token, result.user);
      onSuccess?.();
    },
  });
}
