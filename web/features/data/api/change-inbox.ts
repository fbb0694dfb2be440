import { useMutation, useQueryClient } from '@tanstack/react-query';
import { InboxEnvelopeSchema } from '../../../../core/inbox.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /inbox: a new folder, replacing the old one (which is read no more). */
export const replaceInbox = async () => (await api.post('/inbox', InboxEnvelopeSchema, {})).inbox;

/** DELETE /inbox: the folder is read no more; its files stay. */
export const removeInbox = async () => (await api.delete('/inbox', InboxEnvelopeSchema)).inbox;

/** Turns the inbox on, replaces its folder or turns it off; the answer is what the panel shows next. */
export function useChangeInbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: 'replace' | 'remove') => (change === 'replace' ? replaceInbox() : removeInbox()),
    onSuccess: (inbox) => queryClient.setQueryData(queryKeys.inbox, inbox),
  });
}
