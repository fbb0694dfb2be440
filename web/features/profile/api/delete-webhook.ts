import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MessageSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const deleteWebhook = (id: number) => api.delete(`/webhooks/${id}`, MessageSchema);

export function useDeleteWebhook({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: async () => {
      onSuccess?.();
      await queryClient.invalidateQueries({ queryKey: queryKeys.webhooks });
    },
  });
}
