/**
 * Runs (entries): their fields, the body of a run and its extras, the list queries and their
 * orders, the run in responses, the envelopes of runs and a list's summary.
 */
import { z } from 'zod';
import {
  DISTANCE_NOT_POSITIVE_MESSAGE,
  MAX_SPEED_KMH,
  SPEED_TOO_HIGH_MESSAGE,
  TIME_NOT_POSITIVE_MESSAGE,
} from '../messages.js';
import { isValidDate, parseDuration, speedKmh } from '../time.js';
import {
  blankToUndefined,
  DECIMAL_RE,
  hasNoControlCharacters,
  INTEGER_RE,
  isWellFormedText,
  PageQuerySchema,
  pagedSchema,
  toNumber,
} from './fields.js';
import { brokenText, isMissing } from './internal.js';
import { UserRefSchema } from './users.js';

export { MAX_SPEED_KMH };
export const MAX_DISTANCE_KM = 1000;
export const EARLIEST_DATE = '1900-01-01';

export const DateSchema = z.preprocess(
  blankToUndefined,
  z
    .string({
      error: (issue) => (isMissing(issue.input) ? 'The date field is required.' : 'The date must be a string.'),
    })
    .refine(isValidDate, 'The date must be a real date in the format YYYY-MM-DD.')
    .refine((d) => d >= EARLIEST_DATE, 'The date must not be before 1900-01-01.'),
);

export const DistanceSchema = z.preprocess(
  toNumber(DECIMAL_RE),
  z
    .number({
      error: (issue) => (isMissing(issue.input) ? 'The distance field is required.' : 'The distance must be a number.'),
    })
    .refine(Number.isFinite, 'The distance must be a number.')
    .refine((d) => d > 0, DISTANCE_NOT_POSITIVE_MESSAGE)
    .refine((d) => d <= MAX_DISTANCE_KM, `The distance must not be greater than ${MAX_DISTANCE_KM}.`)
    // Metres are stored: a distance is exact to the metre, up to the float error of its decimal text.
    .refine(
      (d) => Math.abs(Math.round(d * 1000) - d * 1000) <= 1e-9 * Math.max(1, d * 1000),
      'The distance must have at most 3 decimals.',
    )
    // What is stored must still be a distance.
    .refine((d) => Math.round(d * 1000) > 0, DISTANCE_NOT_POSITIVE_MESSAGE),
);

export const TimeSchema = z.preprocess(
  blankToUndefined,
  z
    .string({
      error: (issue) => (isMissing(issue.input) ? 'The time field is required.' : 'The time must be a string.'),
    })
    .refine((t) => parseDuration(t) !== null, 'The time must be a duration in the format HH:MM:SS.')
    .refine((t) => (parseDuration(t) ?? 1) > 0, TIME_NOT_POSITIVE_MESSAGE),
);

export const RUN_KINDS = ['easy', 'long', 'workout', 'race'] as const;
export type RunKind = (typeof RUN_KINDS)[number];
export const MAX_TITLE_LENGTH = 100;
export const MAX_NOTES_LENGTH = 2000;

/** Line breaks and tabs are text in notes; other control characters are not. */
function hasNoControlCharactersButBreaks(text: string): boolean {
  return hasNoControlCharacters(text.replace(/[\r\n\t]/g, ' '));
}

/**
 * An optional field of a run (CONTRACT.md §8): absent leaves it unchanged, `null` clears it,
 * and so does a blank value (a form cannot send null).
 */
export function clearable<T extends z.ZodType>(schema: T, wrongType: string) {
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? null : value),
    z.union([z.null(), schema], { error: wrongType }).optional(),
  );
}

export const EntryExtrasSchema = z.object({
  title: clearable(
    z
      .string({ error: 'The title must be a string.' })
      .trim()
      .max(MAX_TITLE_LENGTH, `The title must not be greater than ${MAX_TITLE_LENGTH} characters.`)
      .refine(hasNoControlCharacters, 'The title must not contain control characters.')
      .refine(isWellFormedText, brokenText('title')),
    'The title must be text.',
  ),
  notes: clearable(
    z
      .string({ error: 'The notes must be a string.' })
      .trim()
      .max(MAX_NOTES_LENGTH, `The notes must not be greater than ${MAX_NOTES_LENGTH} characters.`)
      .refine(hasNoControlCharactersButBreaks, 'The notes must not contain control characters.')
      .refine(isWellFormedText, brokenText('notes')),
    'The notes must be text.',
  ),
  kind: clearable(
    z.enum(RUN_KINDS, { error: 'The kind must be one of easy, long, workout or race.' }),
    'The kind must be one of easy, long, workout or race.',
  ),
  effort: clearable(
    z.preprocess(
      toNumber(INTEGER_RE),
      z
        .number({ error: 'The effort must be a whole number from 1 to 10.' })
        .int('The effort must be a whole number from 1 to 10.')
        .min(1, 'The effort must be a whole number from 1 to 10.')
        .max(10, 'The effort must be a whole number from 1 to 10.'),
    ),
    'The effort must be a whole number from 1 to 10.',
  ),
  shoe_id: clearable(
    z.preprocess(
      toNumber(INTEGER_RE),
      z
        .number({ error: 'The selected shoe is invalid.' })
        .int('The selected shoe is invalid.')
        .min(1, 'The selected shoe is invalid.')
        .max(2_147_483_647, 'The selected shoe is invalid.'),
    ),
    'The selected shoe is invalid.',
  ),
});
export type EntryExtras = z.infer<typeof EntryExtrasSchema>;

export const EntryBodySchema = z
  .object({ date: DateSchema, distance: DistanceSchema, time: TimeSchema, ...EntryExtrasSchema.shape })
  .superRefine((entry, ctx) => {
    const seconds = parseDuration(entry.time) ?? 0;
    if (seconds > 0 && speedKmh(entry.distance, seconds) > MAX_SPEED_KMH) {
      ctx.addIssue({ code: 'custom', path: ['time'], message: SPEED_TOO_HIGH_MESSAGE });
    }
  });
export type EntryBody = z.infer<typeof EntryBodySchema>;

function optionalDate(field: string) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: `The ${field} must be a date in the format YYYY-MM-DD.` })
      .refine(isValidDate, `The ${field} must be a date in the format YYYY-MM-DD.`)
      .optional(),
  );
}

const EntryRangeQuerySchema = PageQuerySchema.extend({
  dateFrom: optionalDate('dateFrom'),
  dateTo: optionalDate('dateTo'),
});

function rangeInOrder(query: { dateFrom?: string | undefined; dateTo?: string | undefined }, ctx: z.RefinementCtx) {
  if (query.dateFrom && query.dateTo && query.dateFrom > query.dateTo) {
    ctx.addIssue({
      code: 'custom',
      path: ['dateFrom'],
      message: 'The dateFrom must be a date before or equal to dateTo.',
    });
  }
}

export const EntryListQuerySchema = EntryRangeQuerySchema.superRefine(rangeInOrder);
export type EntryListQuery = z.infer<typeof EntryListQuerySchema>;

/**
 * Orders of the runner's own list (CONTRACT.md §18): `-date` (the default: date desc, then id
 * desc) and `date` (date asc, then id asc); by distance, time or pace, ties by date desc, then
 * id desc. A leading `-` is descending.
 */
export const ENTRY_SORTS = ['-date', 'date', 'distance', '-distance', 'time', '-time', 'pace', '-pace'] as const;
export type EntrySort = (typeof ENTRY_SORTS)[number];
export const DEFAULT_ENTRY_SORT: EntrySort = '-date';
export const SORT_MESSAGE = `The sort must be one of ${ENTRY_SORTS.join(', ')}.`;

export const OwnEntryListQuerySchema = EntryRangeQuerySchema.extend({
  sort: z.preprocess(blankToUndefined, z.enum(ENTRY_SORTS, { error: SORT_MESSAGE }).optional()),
}).superRefine(rangeInOrder);
export type OwnEntryListQuery = z.infer<typeof OwnEntryListQuerySchema>;

// ---- Responses ----

export const EntrySchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  date: z.string(),
  distance: z.number(),
  time: z.string(),
  speed: z.number(),
  pace: z.number(),
  title: z.string().nullable(),
  notes: z.string().nullable(),
  kind: z.enum(RUN_KINDS).nullable(),
  effort: z.number().int().nullable(),
  shoe_id: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  // What the run's track adds (CONTRACT.md §13): read-only, null without a track.
  has_track: z.boolean(),
  elevation_gain: z.number().int().nullable().describe('Whole metres, from the track'),
  elevation_loss: z.number().int().nullable().describe('Whole metres, from the track'),
  avg_heart_rate: z.number().int().nullable().describe('Whole bpm, from the track'),
  max_heart_rate: z.number().int().nullable().describe('Whole bpm, from the track'),
  avg_cadence: z.number().int().nullable().describe('Whole steps per minute, from the track'),
});
export type Entry = z.infer<typeof EntrySchema>;

export const EntryWithUserSchema = EntrySchema.extend({ user: UserRefSchema });
export type EntryWithUser = z.infer<typeof EntryWithUserSchema>;

export const EntryEnvelopeSchema = z.object({ entry: EntrySchema });
export const EntriesEnvelopeSchema = z.object({ entries: pagedSchema(EntrySchema) });

/** The totals of every run a list's filter selects (not only its page). */
export const EntriesSummarySchema = z.object({
  runs: z.number().int(),
  distance: z.number().describe('km, 3 decimals'),
  seconds: z.number().int(),
  avg_pace: z.number().nullable().describe('seconds / distance / 60 (min/km, 2 decimals); null without runs'),
});
export type EntriesSummary = z.infer<typeof EntriesSummarySchema>;

export const OwnEntriesEnvelopeSchema = EntriesEnvelopeSchema.extend({ summary: EntriesSummarySchema });
export const AllEntriesEnvelopeSchema = z.object({ entries: pagedSchema(EntryWithUserSchema) });
