import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateUserData } from '../../../lib/query-keys';
import { deleteUser } from '../../../lib/users-api';

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
