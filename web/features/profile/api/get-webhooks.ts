import { queryOptions, useQuery } from '@tanstack/react-query';
import { WebhooksEnvelopeSchema, type Webhook } from '../../../../core/webhooks.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /webhooks: the runner's webhooks, each with its last delivery. */
export async function getWebhooks(signal?: AbortSignal): Promise<Webhook[]> {
  return (await api.get('/webhooks', WebhooksEnvelopeSchema, { signal })).webhooks;
}

export const webhooksQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.webhooks, queryFn: ({ signal }) => getWebhooks(signal) });

export function useWebhooks() {
  return useQuery(webhooksQueryOptions());
}
