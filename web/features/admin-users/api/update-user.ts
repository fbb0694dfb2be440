import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '../../../../core/schemas.js';
import { invalidateUserData, queryKeys } from '../../../lib/query-keys';
import { updateUser } from '../../../lib/users-api';

export function useUpdateUser({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: async (user) => {
      queryClient.setQueryData(queryKeys.user(user.id), user);
      // Editing oneself through the admin panel changes the current user too.
      const me = queryClient.getQueryData<User | null>(queryKeys.me);
      if (me && me.id === user.id) queryClient.setQueryData(queryKeys.me, user);
      onSuccess?.();
      await invalidateUserData(queryClient);
    },
  });
}
