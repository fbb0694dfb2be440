import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AuthResponseSchema, type LoginBody } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { startSession } from './get-me';

export const login = (body: LoginBody) => api.post('/auth/login', AuthResponseSchema, body);

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
