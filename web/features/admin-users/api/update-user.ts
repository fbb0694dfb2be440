import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserEnvelopeSchema, type User } from '../../../../core/schemas.js';
import type { UserFormPayload } from '../../../components/form/user-form';
import { api } from '../../../lib/api-client';
import { invalidateUserData, queryKeys } from '../../../lib/query-keys';

export async function updateUser({ id, ...payload }: UserFormPayload & { id: number }) {
  const result = await api.put(`/user/${id}`, UserEnvelopeSchema, payload);
  return result.user;
}

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
