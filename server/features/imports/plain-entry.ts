/**
 * The cheap half of an imported run's validation. Most rows of an import are plainly valid:
 * for those, a few direct tests of `POST /entry`'s rules (EntryBodySchema) give the same
 * body the schema would, without building its issues. Anything less plain answers null, and
 * the caller asks the schema itself, whose message is the one shown: the rules stay the
 * schema's, this only recognises their easy cases (imports/imports.test.ts holds the two together).
 */
import {
  EARLIEST_DATE,
  MAX_DISTANCE_KM,
  MAX_NOTES_LENGTH,
  MAX_SPEED_KMH,
  MAX_TITLE_LENGTH,
  RUN_KINDS,
  hasNoControlCharacters,
  isWellFormedText,
  type EntryBody,
} from '../../../core/schemas.js';
import { isValidDate, parseDuration, speedKmh } from '../../../core/time.js';

/** What an import asks to validate: the fields of `POST /entry` a file can bring. */
export interface EntryInput {
  date: string | undefined;
  distance: number | undefined;
  time: string | undefined;
  title: unknown;
  notes: unknown;
  kind: unknown;
  effort: unknown;
}

const KINDS: ReadonlySet<unknown> = new Set(RUN_KINDS);

/** A text field as the schema keeps it (trimmed; blank is null), or undefined when it is not plainly valid. */
function plainText(value: unknown, max: number, breaks: boolean): string | null | undefined {
  if (value === null) return null;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return null;
  if (text.length > max || !isWellFormedText(text)) return undefined;
  return hasNoControlCharacters(breaks ? text.replace(/[\r\n\t]/g, ' ') : text) ? text : undefined;
}

function plainEffort(value: unknown): number | null | undefined {
  if (value === null) return null;
  const effort = typeof value === 'string' && /^(10|[1-9])$/.test(value) ? Number(value) : value;
  return typeof effort === 'number' && Number.isInteger(effort) && effort >= 1 && effort <= 10 ? effort : undefined;
}

/** The body EntryBodySchema would give for a plainly valid input, else null (ask the schema). */
export function plainEntryBody(input: EntryInput): EntryBody | null {
  const { date, distance, time } = input;
  if (date === undefined || !isValidDate(date) || date < EARLIEST_DATE) return null;
  if (distance === undefined || !Number.isFinite(distance) || distance <= 0 || distance > MAX_DISTANCE_KM) return null;
  // DistanceSchema's own tests, as it writes them: at most 3 decimals, and a distance once in metres.
  if (Math.abs(Math.round(distance * 1000) - distance * 1000) > 1e-9 * Math.max(1, distance * 1000)) return null;
  if (Math.round(distance * 1000) <= 0) return null;
  const seconds = time === undefined ? null : parseDuration(time);
  if (seconds === null || seconds <= 0 || speedKmh(distance, seconds) > MAX_SPEED_KMH) return null;
  const title = plainText(input.title, MAX_TITLE_LENGTH, false);
  const notes = plainText(input.notes, MAX_NOTES_LENGTH, true);
  const effort = plainEffort(input.effort);
  if (title === undefined || notes === undefined || effort === undefined) return null;
  if (input.kind !== null && !KINDS.has(input.kind)) return null;
  return { date, distance, time: time!, title, notes, kind: input.kind as EntryBody['kind'], effort };
}
