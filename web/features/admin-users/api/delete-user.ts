import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MessageSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { invalidateUserData } from '../../../lib/query-keys';

export const deleteUser = (id: number) => api.delete(`/user/${id}`, MessageSchema);

export function useDeleteUser({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: async () => {
      onSuccess?.();
      await invalidateUserData(queryClient);
    },
  });
}
