import { queryOptions, useQuery } from '@tanstack/react-query';
import { CalendarFeedEnvelopeSchema } from '../../../../core/calendar-feed.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /calendar-feed: the address of the runner's calendar feed, or null until they make one. */
export async function getCalendarFeed(signal?: AbortSignal): Promise<string | null> {
  const result = await api.get('/calendar-feed', CalendarFeedEnvelopeSchema, { signal });
  return result.calendar_feed.url;
}

export const calendarFeedQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.calendarFeed, queryFn: ({ signal }) => getCalendarFeed(signal) });

export function useCalendarFeed() {
  return useQuery(calendarFeedQueryOptions());
}
