import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MessageSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const revokeToken = (id: number) => api.delete(`/tokens/${id}`, MessageSchema);

export function useRevokeToken({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeToken,
    onSuccess: async () => {
      onSuccess?.();
      await queryClient.invalidateQueries({ queryKey: queryKeys.tokens });
    },
  });
}
