import type { LoginBody } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { parseAuthResponse } from '../../../lib/response-guards';
import { useSessionRequest } from './session-request';

export const login = (body: LoginBody) => api.post('/auth/login', parseAuthResponse, body);

export function useLogin({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useSessionRequest(login, onSuccess);
}
