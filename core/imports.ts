/**
 * Import and export of runs (CONTRACT.md §9): the wire shapes of `POST /import` and
 * `GET /export`, shared by the server's routes, the OpenAPI document and the web app.
 */
import { z } from 'zod';
import { EntrySchema } from './schemas.js';

export const IMPORT_STATUSES = [
  'created',
  'would_create',
  'track_added',
  'would_add_track',
  'duplicate',
  'skipped',
] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const DISTANCE_UNITS = ['km', 'mi', 'm'] as const;
export type DistanceUnit = (typeof DISTANCE_UNITS)[number];

const column = (field: string) =>
  z
    .string({ error: `The mapping's ${field} must be a column name.` })
    .trim()
    .min(1, `The mapping's ${field} must be a column name.`)
    .max(200, `The mapping's ${field} must not be greater than 200 characters.`);

/** Which column of an unrecognised CSV is which. */
export const ImportMappingSchema = z.object(
  {
    date: column('date'),
    distance: column('distance'),
    time: column('time'),
    distance_unit: z.enum(DISTANCE_UNITS, { error: 'The distance_unit must be one of km, mi or m.' }).default('km'),
    title: column('title').optional(),
    notes: column('notes').optional(),
  },
  { error: 'The mapping must be a JSON object.' },
);
export type ImportMapping = z.infer<typeof ImportMappingSchema>;

/** An imported run as shown before it is stored: an entry without its id and times. */
export const ImportedEntrySchema = EntrySchema.omit({ id: true, created_at: true, updated_at: true }).extend({
  id: z.number().int().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type ImportedEntry = z.infer<typeof ImportedEntrySchema>;

/** The stored run a duplicate row matches: the preview shows it and links to it. */
export const StoredMatchSchema = z.object({
  id: z.number().int(),
  date: z.string(),
  distance: z.number(),
  time: z.string(),
});
export type StoredMatch = z.infer<typeof StoredMatchSchema>;

export const ImportRowSchema = z.object({
  source: z.string(),
  status: z.enum(IMPORT_STATUSES),
  reason: z.string().optional().describe('Why the row was skipped, or what was left of it, in the request’s language'),
  reason_code: z
    .string()
    .optional()
    .describe('The reason as a stable snake_case code, the same in every language (e.g. too_short, duplicate_stored)'),
  entry: ImportedEntrySchema.optional(),
  columns: z.array(z.string()).optional(),
  duplicate_of: StoredMatchSchema.optional().describe('On a duplicate of a stored run: that run'),
});
export type ImportRow = z.infer<typeof ImportRowSchema>;

export const ImportResultSchema = z.object({
  created: z.number().int(),
  duplicates: z.number().int(),
  skipped: z.number().int(),
  /** §13: stored runs without a track that this import gave one (on a dry run: would give). */
  tracks_added: z.number().int(),
  rows: z.array(ImportRowSchema),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

export const ImportEnvelopeSchema = z.object({ import: ImportResultSchema });
export type ImportEnvelope = z.infer<typeof ImportEnvelopeSchema>;

export const EXPORT_FORMATS = ['csv', 'json', 'zip'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const ExportQuerySchema = z.object({
  format: z
    .preprocess(
      (value) => (value === '' || value === undefined ? 'csv' : value),
      z.enum(EXPORT_FORMATS, { error: 'The format must be csv, json or zip.' }),
    )
    .describe(
      'csv (runs), json (runs, shoes and goals) or zip (the json as running-times.json, and each tracked run’s activity file under activities/)',
    ),
});

/** The CSV export's header, in order. */
export const EXPORT_CSV_COLUMNS = ['date', 'distance_km', 'time', 'title', 'notes', 'kind', 'effort', 'shoe'] as const;

/** What a spreadsheet runs as a formula (or would once one quote is taken off). */
const FORMULA_START = /^[=+\-@\t\r']/;

/** A cell of the CSV export: text a spreadsheet would run as a formula starts with one more `'` (§18). */
export const exportedCsvText = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/** A cell of this server's CSV, imported: the `'` the export added is taken off again. */
export const importedCsvText = (text: string): string => (text.startsWith("'") ? text.slice(1) : text);

/** What the JSON export says it is. */
export const EXPORT_FORMAT_NAME = 'running-times';
export const EXPORT_VERSION = 1;

/** The zip export's JSON export (§16), and the folder of its activity files (`activities/<id>.<ext>`). */
export const ZIP_EXPORT_INDEX = 'running-times.json';
export const ZIP_EXPORT_ACTIVITIES = 'activities/';

/**
 * §9's match of two runs' numbers (metres and seconds, rounded as imported): distances within 1% of
 * the larger, times within max(5 s, 1% of the longer).
 */
export function sameRunNumbers(aMetres: number, aSeconds: number, bMetres: number, bSeconds: number): boolean {
  if (Math.abs(aMetres - bMetres) > 0.01 * Math.max(aMetres, bMetres)) return false;
  return Math.abs(aSeconds - bSeconds) <= Math.max(5, 0.01 * Math.max(aSeconds, bSeconds));
}
