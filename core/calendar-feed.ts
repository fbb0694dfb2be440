/** The calendar feed (CONTRACT.md §20): the address of a runner's runs as an iCalendar feed. */
import { z } from 'zod';

/** A feed key: 24 characters of [a-z0-9]. */
export const CALENDAR_FEED_KEY = /^[a-z0-9]{24}$/;

export const CalendarFeedEnvelopeSchema = z.object({
  calendar_feed: z.object({
    url: z
      .string()
      .nullable()
      .describe('<PUBLIC_URL>/ical/<key>.ics: subscribe to it in a calendar app; null until the first POST'),
  }),
});
export type CalendarFeedEnvelope = z.infer<typeof CalendarFeedEnvelopeSchema>;
