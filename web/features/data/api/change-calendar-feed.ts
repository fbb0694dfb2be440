import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CalendarFeedEnvelopeSchema } from '../../../../core/calendar-feed.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /calendar-feed: a new address, replacing the old one (which stops at once). */
export const replaceCalendarFeed = async () =>
  (await api.post('/calendar-feed', CalendarFeedEnvelopeSchema, {})).calendar_feed.url;

/** DELETE /calendar-feed: no address any more. */
export const removeCalendarFeed = async () =>
  (await api.delete('/calendar-feed', CalendarFeedEnvelopeSchema)).calendar_feed.url;

/** Makes, replaces or removes the address; the answer is the address the panel shows next. */
export function useChangeCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: 'replace' | 'remove') => (change === 'replace' ? replaceCalendarFeed() : removeCalendarFeed()),
    onSuccess: (url) => queryClient.setQueryData(queryKeys.calendarFeed, url),
  });
}
