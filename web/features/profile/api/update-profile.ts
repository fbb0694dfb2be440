import { useMutation, useQueryClient } from '@tanstack/react-query';
import { UserEnvelopeSchema } from '../../../../core/schemas.js';
import type { UserFormPayload } from '../../../components/form/user-form';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function updateProfile({ id, ...payload }: UserFormPayload & { id: number }) {
  const result = await api.put(`/user/${id}`, UserEnvelopeSchema, payload);
  return result.user;
}

/** Saves the profile; the returned user replaces the current one (SPEC §4). */
export function useUpdateProfile({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: async (user) => {
      queryClient.setQueryData(queryKeys.me, user);
      onSuccess?.();
      // A new time zone moves "this week" and "this month".
      await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.me[0] });
    },
  });
}
