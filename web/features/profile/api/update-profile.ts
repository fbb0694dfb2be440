import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys';
import { updateUser } from '../../../lib/users-api';

/** Saves the profile; the returned user replaces the current one (SPEC §4). */
export function useUpdateProfile({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: async (user) => {
      queryClient.setQueryData(queryKeys.me, user);
      onSuccess?.();
      // A new time zone moves "this week" and "this month".
      await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.me[0] });
    },
  });
}
