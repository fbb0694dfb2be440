import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WebhookCreatedSchema, type WebhookEvent } from '../../../../core/webhooks.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /webhooks: the new webhook, with its secret shown this once. */
export const addWebhook = (input: { url: string; events: WebhookEvent[] }) =>
  api.post('/webhooks', WebhookCreatedSchema, { ...input });

export function useAddWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks }),
  });
}
