import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MessageSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { invalidateRunData } from '../../../lib/query-keys';

export const deleteEntry = (id: number) => api.delete(`/entry/${id}`, MessageSchema);

export function useDeleteEntry({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEntry,
    onSuccess: async () => {
      onSuccess?.();
      await invalidateRunData(queryClient);
    },
  });
}
