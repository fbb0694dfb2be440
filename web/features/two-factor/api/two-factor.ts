import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MessageSchema } from '../../../../core/schemas.js';
import { RecoveryCodesSchema, TwoFactorSetupSchema } from '../../../../core/two-factor.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /user/me/two-factor: a new secret and its otpauth URL, not on until confirmed. */
export const beginTwoFactor = () => api.post('/user/me/two-factor', TwoFactorSetupSchema, {});

/** POST /user/me/two-factor/confirm: on, with ten recovery codes shown once. */
export const confirmTwoFactor = async (code: string) =>
  (await api.post('/user/me/two-factor/confirm', RecoveryCodesSchema, { code })).recovery_codes;

/** DELETE /user/me/two-factor with the password (sent as the app sends deletes). */
export const disableTwoFactor = (password: string) =>
  api.post('/user/me/two-factor', MessageSchema, { _method: 'DELETE', password });

/** DELETE /user/{id}/two-factor: an admin's reset. */
export const resetTwoFactor = (id: number) => api.delete(`/user/${id}/two-factor`, MessageSchema);

export function useBeginTwoFactor() {
  return useMutation({ mutationFn: beginTwoFactor });
}

export function useConfirmTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}

export function useResetTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetTwoFactor,
    onSuccess: (_, id) => queryClient.invalidateQueries({ queryKey: queryKeys.user(id) }),
  });
}
