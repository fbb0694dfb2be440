import { queryOptions, useQuery } from '@tanstack/react-query';
import { InboxEnvelopeSchema, type InboxEnvelope } from '../../../../core/inbox.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type Inbox = InboxEnvelope['inbox'];

/** GET /inbox: whether the server reads inbox folders, the runner's folder (null until made) and its recent rows. */
export async function getInbox(signal?: AbortSignal): Promise<Inbox> {
  return (await api.get('/inbox', InboxEnvelopeSchema, { signal })).inbox;
}

export const inboxQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.inbox,
    queryFn: ({ signal }) => getInbox(signal),
    // Files arrive by themselves: the recent rows are read again while the page is open.
    refetchInterval: 15_000,
  });

export function useInbox() {
  return useQuery(inboxQueryOptions());
}
