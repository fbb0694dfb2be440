/**
 * The API contract as zod schemas: one schema per request and response, used by the
 * server's routes, the OpenAPI document, the web app's forms and the tests.
 */
import { z } from 'zod';
import {
  DISTANCE_NOT_POSITIVE_MESSAGE,
  EMAIL_PATTERN,
  INVALID_EMAIL_MESSAGE,
  MAX_SPEED_KMH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_MISMATCH_MESSAGE,
  SPEED_TOO_HIGH_MESSAGE,
  TIME_NOT_POSITIVE_MESSAGE,
  requiredMessage,
} from './messages.js';
import { canonicalTimeZone, isValidDate, isValidTimeZone, parseDuration, speedKmh } from './time.js';
import { DATE_FORMATS, PACE_FORMATS, THEMES, THEME_MESSAGE, UNITS, UNITS_MESSAGE } from './preferences.js';

export const ROLES = ['user', 'manager', 'admin'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/**
 * Messages for the checks a schema leaves to zod (a wrong type, an unknown shape): a sentence
 * naming the field, never the library's wording. Every rule of the contract has its own message.
 */
const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'number',
  int: 'whole number',
  boolean: 'true or false',
  array: 'list',
  object: 'object',
};
z.config({
  customError: (issue) => {
    const field = issue.path && issue.path.length > 0 ? String(issue.path[0]) : null;
    if (!field) return 'The request body must be a JSON object.';
    if (issue.code === 'invalid_type') {
      const expected = TYPE_NAMES[String(issue.expected)] ?? String(issue.expected);
      return `The ${field} must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}.`;
    }
    return `The ${field} is invalid.`;
  },
});

export { MAX_SPEED_KMH };
export const MAX_DISTANCE_KM = 1000;
export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;
export const EARLIEST_DATE = '1900-01-01';

export const DECIMAL_RE = /^[+-]?(\d+\.?\d*|\.\d+)$/;
export const INTEGER_RE = /^[+-]?\d+$/;

const isMissing = (input: unknown) => input === undefined || input === null;

/**
 * C0 control characters and DEL. Single-line text never needs them, and PostgreSQL
 * cannot store NUL at all, so they are refused before they reach the database.
 */
export function hasNoControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

/** No lone UTF-16 surrogate: such a string cannot be stored or shown as the text that was sent. */
export function isWellFormedText(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

const brokenText = (field: string) => `The ${field} contains a broken character; please type it again.`;

/** Blank strings count as absent; other strings are trimmed. */
export function blankToUndefined(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Numbers may arrive as strings from form-encoded bodies and query strings. */
export function toNumber(pattern: RegExp) {
  return (value: unknown): unknown => {
    const text = blankToUndefined(value);
    return typeof text === 'string' && pattern.test(text) ? Number(text) : text;
  };
}

export function requiredText(field: string, max = 255) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({
        error: (issue) => (isMissing(issue.input) ? requiredMessage(field) : `The ${field} must be a string.`),
      })
      .max(max, `The ${field} must not be greater than ${max} characters.`)
      .refine(hasNoControlCharacters, `The ${field} must not contain control characters.`)
      .refine(isWellFormedText, brokenText(field)),
  );
}

export const NameSchema = requiredText('name');

export const EmailSchema = requiredText('email').pipe(
  z
    .string()
    .toLowerCase()
    .regex(EMAIL_PATTERN, INVALID_EMAIL_MESSAGE)
    // Lower-casing can lengthen a string ("İ" becomes two characters): check the stored form too.
    .max(255, 'The email must not be greater than 255 characters.'),
);

const passwordText = z
  .string({
    error: (issue) => (isMissing(issue.input) ? 'The password field is required.' : 'The password must be a string.'),
  })
  .min(PASSWORD_MIN_LENGTH, `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(128, 'The password must not be greater than 128 characters.');

/** Passwords are never trimmed: spaces are part of them. Empty counts as absent. */
const PasswordSchema = z.preprocess((v) => (v === '' ? undefined : v), passwordText);
const OptionalPasswordSchema = z.preprocess((v) => (v === '' || v === null ? undefined : v), passwordText.optional());
const ConfirmationSchema = z.preprocess(
  (v) => (v === null ? undefined : v),
  z.string({ error: 'The password confirmation must be a string.' }).optional(),
);

/** A preference (§11, §18): absent, blank or null leaves it unchanged. */
const unchangedIfEmpty = (value: unknown) => (value === null ? undefined : blankToUndefined(value));

/** A valid IANA zone, stored in its canonical spelling; blank or null counts as absent (unchanged). */
export const TimeZoneSchema = z.preprocess(
  unchangedIfEmpty,
  z
    .string({ error: 'The timezone must be a valid time zone.' })
    .refine(isValidTimeZone, 'The timezone must be a valid time zone.')
    .transform((zone) => canonicalTimeZone(zone) ?? zone)
    .optional(),
);

// Here rather than with the preferences: the first screen loads those, and never these messages.
export const PACE_FORMAT_MESSAGE = 'The pace_format must be decimal or clock.';
export const DATE_FORMAT_MESSAGE = 'The date_format must be MM/DD/YYYY, DD/MM/YYYY or YYYY-MM-DD.';

/** A preference of the user resource: one of `values`; absent, blank or null leaves it unchanged. */
function preference<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  return z.preprocess(unchangedIfEmpty, z.enum(values, { error: message }).optional());
}

const RoleFieldSchema = z.preprocess(
  blankToUndefined,
  z.enum(ROLES, { error: 'The role must be one of user, manager or admin.' }).optional(),
);

function confirmPassword(
  value: { password?: string | undefined; password_confirmation?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (value.password !== undefined && value.password !== value.password_confirmation) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_MISMATCH_MESSAGE });
  }
}

export const RegisterBodySchema = z
  .object({
    name: NameSchema,
    email: EmailSchema,
    password: PasswordSchema,
    password_confirmation: ConfirmationSchema,
    timezone: TimeZoneSchema,
  })
  .superRefine(confirmPassword);
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const LoginBodySchema = z.object({
  email: requiredText('email'),
  password: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string({
      error: (issue) => (isMissing(issue.input) ? 'The password field is required.' : 'The password must be a string.'),
    }),
  ),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

/**
 * A heart rate of the profile (CONTRACT.md §14): a whole number of beats per minute within its
 * range, or null to clear it; absent (or blank) = unchanged.
 */
function heartRateField(what: string, min: number, max: number) {
  const message = `The ${what} must be a whole number of beats per minute from ${min} to ${max}.`;
  return z.preprocess(
    (v) => (v === '' ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error: message }).int(message).min(min, message).max(max, message).nullable().optional(),
  );
}

export const UserUpdateBodySchema = z
  .object({
    name: NameSchema,
    email: EmailSchema,
    password: OptionalPasswordSchema,
    password_confirmation: ConfirmationSchema,
    role: RoleFieldSchema,
    timezone: TimeZoneSchema,
    // Preferences (§11, §18): absent, blank or null = unchanged.
    units: preference(UNITS, UNITS_MESSAGE),
    theme: preference(THEMES, THEME_MESSAGE),
    pace_format: preference(PACE_FORMATS, PACE_FORMAT_MESSAGE),
    date_format: preference(DATE_FORMATS, DATE_FORMAT_MESSAGE),
    // The heart-rate profile (§14): absent = unchanged, null clears.
    max_heart_rate: heartRateField('maximum heart rate', 100, 250),
    resting_heart_rate: heartRateField('resting heart rate', 25, 120),
  })
  .superRefine(confirmPassword);
export type UserUpdateBody = z.infer<typeof UserUpdateBodySchema>;

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

function positiveInteger(field: string, max?: number) {
  const base = z
    .number({ error: `The ${field} must be an integer.` })
    .int(`The ${field} must be an integer.`)
    .min(1, `The ${field} must be at least 1.`);
  return z.preprocess(
    toNumber(INTEGER_RE),
    (max ? base.max(max, `The ${field} must not be greater than ${max}.`) : base).optional(),
  );
}

export const PageQuerySchema = z.object({
  page: positiveInteger('page'),
  per_page: positiveInteger('per_page', MAX_PER_PAGE),
});

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

export const UserListQuerySchema = PageQuerySchema.extend({
  query: z.preprocess(
    blankToUndefined,
    z
      .string({ error: 'The query must be a string.' })
      .max(255, 'The query must not be greater than 255 characters.')
      .refine(hasNoControlCharacters, 'The query must not contain control characters.')
      .refine(isWellFormedText, brokenText('query'))
      .optional(),
  ),
});
export type UserListQuery = z.infer<typeof UserListQuerySchema>;

export const WeeklyQuerySchema = z.object({
  year: z.preprocess(
    toNumber(INTEGER_RE),
    z
      .number({ error: 'The year must be an integer.' })
      .int('The year must be an integer.')
      .min(1900, 'The year must be at least 1900.')
      .max(2100, 'The year must not be greater than 2100.')
      .optional(),
  ),
});

export const IdParamsSchema = z.object({
  id: z.preprocess(toNumber(INTEGER_RE), z.number({ error: 'Not found.' }).int().min(1).max(2_147_483_647)),
});

// ---- Responses ----

export const UserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: RoleSchema,
  timezone: z.string(),
  units: z.enum(UNITS).describe('Distances shown in km or mi by the web app; the API always speaks km'),
  theme: z.enum(THEMES),
  max_heart_rate: z
    .number()
    .int()
    .nullable()
    .describe('Beats per minute, 100-250: the heart-rate zones of tracked runs'),
  resting_heart_rate: z.number().int().nullable().describe('Beats per minute, 25-120'),
  pace_format: z.enum(PACE_FORMATS).describe('Paces shown as decimal minutes (5.35) or minutes and seconds (5:21)'),
  date_format: z.enum(DATE_FORMATS).describe('How the web app writes dates'),
  date: z.string().describe('Creation time, the same as created_at'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type User = z.infer<typeof UserSchema>;

export const UserRefSchema = z.object({ id: z.number().int(), name: z.string() });

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

export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    current_page: z.number().int(),
    last_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    from: z.number().int().nullable(),
    to: z.number().int().nullable(),
    next_page_url: z.string().nullable(),
    prev_page_url: z.string().nullable(),
  });
}
export interface Paged<T> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  from: number | null;
  to: number | null;
  next_page_url: string | null;
  prev_page_url: string | null;
}

export const AuthResponseSchema = z.object({
  user: UserSchema,
  access_token: z.string(),
  token_type: z.literal('Bearer'),
});
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

export const MessageSchema = z.object({ message: z.string() });
export const ErrorSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof ErrorSchema>;

export const UserEnvelopeSchema = z.object({ user: UserSchema });
export const UsersEnvelopeSchema = z.object({ users: pagedSchema(UserSchema) });
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

/** A chart row: [label, speed, distance]. */
export const ChartRowSchema = z.tuple([z.union([z.string(), z.number()]), z.number(), z.number()]);

export const DashboardSchema = z.object({
  weekly_count: z.number().int(),
  weekly_avg_speed: z.number().nullable(),
  weekly_avg_pace: z.number().nullable(),
  max_speed: z.number().nullable(),
  max_distance: z.number().nullable(),
  max_time: z.string().nullable(),
  week_chart: z.array(z.tuple([z.string(), z.number(), z.number()])),
});
export type Dashboard = z.infer<typeof DashboardSchema>;

export const AdminDashboardSchema = z.object({
  total_users: z.number().int(),
  new_users_this_week: z.number().int(),
  new_users_this_month: z.number().int(),
  total_entries: z.number().int(),
  avg_entries_per_user: z.number(),
  fastest_run: EntryWithUserSchema.nullable(),
  longest_run: EntryWithUserSchema.nullable(),
});
export type AdminDashboard = z.infer<typeof AdminDashboardSchema>;

export const WeeklyRowSchema = z.object({
  week: z.number().int(),
  week_start: z.string(),
  week_end: z.string(),
  avg_speed: z.number(),
  avg_distance: z.number(),
  count: z.number().int(),
  total_distance: z.number(),
  total_time: z.string().describe('HH:MM:SS'),
});
export type WeeklyRow = z.infer<typeof WeeklyRowSchema>;

export const WeeklyReportSchema = z.object({
  weekly: z.object({
    year: z.number().int(),
    min_year: z.number().int(),
    max_year: z.number().int(),
    data: z.array(WeeklyRowSchema),
    chart: z.array(z.tuple([z.number().int(), z.number(), z.number()])),
  }),
});
export type WeeklyReport = z.infer<typeof WeeklyReportSchema>['weekly'];

export const AppConfigSchema = z.object({
  demo_mode: z.boolean(),
  demo_login: z.object({ email: z.string(), password: z.string() }).nullable(),
  /** The map's tiles (CONTRACT.md §14): a `{z}/{x}/{y}` URL template and its attribution, or null for none. */
  map: z.object({ tile_url: z.string(), attribution: z.string() }).nullable(),
  source_url: z.string().nullable().describe("The product's source code (SOURCE_URL or package.json repository)"),
});
export type AppConfig = z.infer<typeof AppConfigSchema>;

/** Turns zod issues into the contract's `{message, errors}` body: first message per field. */
export function validationErrorBody(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Required<ErrorBody> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : 'body';
    const message = issue.path.length > 0 ? issue.message : 'The request body must be a JSON object.';
    if (!errors[field]) errors[field] = [message];
  }
  const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
  return { message: first, errors };
}
