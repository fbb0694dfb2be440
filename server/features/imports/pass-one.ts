/**
 * Pass 1 of an import (imports.service.ts): every uploaded file parsed as a stream, each run
 * validated as `POST /entry` would, and each row written to the spool file (spool.ts). It needs
 * no database: it runs on a parse thread (pass-one-threads.ts, pass-one.worker.ts), so that
 * parsing shares no event loop and no heap with other requests.
 */
import fs from 'node:fs';
import { GoalBodySchema, type GoalBody } from '../../../core/goals.js';
import type { ImportMapping } from '../../../core/imports.js';
import { EARLIEST_DATE, EntryBodySchema, type User } from '../../../core/schemas.js';
import { ShoeBodySchema, type ShoeBody } from '../../../core/shoes.js';
import { dateInZone, formatDuration } from '../../../core/time.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { toValues, type EntryValues } from '../entries/entries.service.js';
import { parseUpload } from './parsers/files.js';
import { tooSlow, Unreadable, type ByteSource, type Candidate } from './parsers/types.js';
import { MAX_ORIGINAL_BYTES, packTrack, prepareTrack } from '../tracks/tracks.service.js';
import { plainEntryBody, type EntryInput } from './plain-entry.js';
import type { Spool } from './spool.js';

/** An uploaded file, on disk for as long as the import runs. */
export interface UploadedFile {
  name: string;
  path: string;
}

/**
 * The bounds of one import (docs/reliability.md, "Limits"). What passes the rows bound is a 413
 * (the request is too large to answer row by row); a file that takes longer than its time is
 * skipped with the reason, the others are read.
 */
export const importLimits = {
  /** Rows of one import (runs and skipped rows together): its answer lists each. */
  rows: 1_000_000,
  /** Seconds of parsing one file (an archive's member) may take, waits for a turn not counted. */
  fileSeconds: 60,
  /** Bytes the files of one import may expand to in all, out of gzip files and archives. */
  expandedBytes: 1024 * 1024 * 1024,
};

/** What pass 1 is given: plain data, the same on a worker thread as here. */
export interface PassOneInput {
  files: UploadedFile[];
  user: Pick<User, 'timezone' | 'units'>;
  mapping?: ImportMapping | undefined;
  /** The runner's today (a later date is refused, as by `POST /entry`). */
  today: string;
  /** Sources of rows the runner left out (§18 `exclude`): answered "Left out.". */
  exclude: string[];
  limits: typeof importLimits;
}

/** A shoe of an export, with where it comes from (an import may skip it, and says so under that name). */
export interface SourcedShoe {
  source: string;
  body: ShoeBody;
}

/** What pass 1 found: counts of the rows it wrote, and what pass 2 needs beside them. */
export interface PassOneResult {
  created: number;
  skipped: number;
  /** Files (archive members) whose rows were read: rows of different groups may be duplicates of each other. */
  groups: number;
  shoes: SourcedShoe[];
  goals: GoalBody[];
}

/**
 * A line of the spool: a skipped row `[0, source, reason, columns]`, or a run that passed
 * validation `[1, source, group, date, distanceKm, seconds, title, notes, kind, effort, shoe,
 * track, note]` (shoe: the name of the shoe the file names, or null; track: where its prepared
 * track lies among the spool's blobs, or null; note: what the row's reason says though the run
 * is kept, or null).
 */
export type SkipLine = [0, string, string, string[] | null];
export type RunLine = [
  1,
  string,
  number,
  string,
  number,
  number,
  string | null | undefined,
  string | null | undefined,
  EntryValues['kind'],
  EntryValues['effort'],
  string | null,
  [number, number] | null,
  string | null,
];

/** Distances half-up to the metre and durations to the second, before validation and the duplicate test. */
export const metresOf = (km: number) => Math.round(km * 1000 + 1e-7);

/** toValues reads its context only for today's date, which an import always gives. */
const NO_CONTEXT = {} as AppContext;

/** §18: runs from others' files shorter than this are no runs (a watch started by mistake). */
const MIN_RUN_METRES = 100;
const MIN_RUN_SECONDS = 60;
export const TOO_SHORT = 'Too short to be a run.';

/** §18: a title that is only a date or a date-time says nothing the run's date does not. */
const DATE_TITLES = [
  /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i,
  /^\d{1,2}-[A-Za-z]{3}-\d{2,4}( \d{1,2}:\d{2}(:\d{2})?)?$/i,
];
const isDateTitle = (title: unknown) => typeof title === 'string' && DATE_TITLES.some((re) => re.test(title.trim()));

/** Instants a calendar date can be read from (the years of EARLIEST_DATE to 9999). */
const FIRST_START = Date.parse(`${EARLIEST_DATE}T00:00:00Z`) - 86_400_000;
const LAST_START = Date.parse('9999-12-30T00:00:00Z');

/** A candidate as `POST /entry` would take it, or the first validation message. */
function validate(user: PassOneInput['user'], run: Candidate, today: string): EntryValues | string {
  const metres = Number.isFinite(run.distanceKm) ? metresOf(run.distanceKm) : NaN;
  const seconds = Number.isFinite(run.seconds) ? Math.round(run.seconds) : NaN;
  if (!run.ownExport && (metres < MIN_RUN_METRES || seconds < MIN_RUN_SECONDS)) return TOO_SHORT;
  let date = run.date;
  if (date === undefined && run.start) {
    const at = run.start.getTime();
    if (!(at >= FIRST_START && at <= LAST_START)) return 'The start time is not a valid date.';
    date = dateInZone(run.start, user.timezone);
  }
  const body: EntryInput = {
    date,
    distance: Number.isNaN(metres) ? undefined : metres / 1000,
    time: Number.isNaN(seconds) ? undefined : seconds < 0 ? '-' : formatDuration(seconds),
    title: !run.ownExport && isDateTitle(run.title) ? null : (run.title ?? null),
    notes: run.notes ?? null,
    kind: run.kind ?? null,
    effort: run.effort ?? null,
  };
  let valid = plainEntryBody(body);
  if (!valid) {
    const parsed = EntryBodySchema.safeParse(body);
    if (!parsed.success) return parsed.error.issues[0]?.message ?? 'The run is not valid.';
    valid = parsed.data;
  }
  try {
    return toValues(NO_CONTEXT, user, valid, today);
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
}

const validItems = <T>(
  items: Record<string, unknown>[],
  schema: { safeParse(v: unknown): { success: boolean; data?: T } },
) =>
  items.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data as T] : [];
  });

/** Reads an uploaded file where it lies, a piece at a time (an archive at random places, by its descriptor). */
function openUpload(path: string): ByteSource & { close(): void } {
  const fd = fs.openSync(path, 'r');
  return {
    fd,
    size: fs.fstatSync(fd).size,
    read(at, length) {
      const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, this.size - at)));
      const read = buffer.length > 0 ? fs.readSync(fd, buffer, 0, buffer.length, at) : 0;
      return buffer.subarray(0, read);
    },
    close: () => fs.closeSync(fd),
  };
}

/**
 * A run's track made ready to store, with its original file, among the spool's blobs: its place
 * there and the row's note. A track the maths refuse (a parser's bug) is left out, and the row says so.
 */
function spooledTrack(spool: Spool, run: Candidate): [[number, number] | null, string | null] {
  if (!run.track || !run.trackStart) return [null, run.note ?? null];
  try {
    const prepared = prepareTrack(run.track, run.trackStart);
    const original = run.original && run.original.bytes.length <= MAX_ORIGINAL_BYTES ? run.original : null;
    return [spool.blob(packTrack(prepared, original)), run.note ?? null];
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return [null, `The run is kept without its track: ${error.message}`];
  }
}

const LEFT_OUT = 'Left out.';
const UNEXPECTED = 'The file could not be read.';
const tooManyRows = (most: number) =>
  new AppError(
    413,
    `This import holds more than ${most.toLocaleString('en')} rows: send its files in smaller groups; nothing was stored.`,
  );

/** `pause`, counting the time it makes the import wait (a file's time counts only its own work). */
function timed(pause: () => Promise<void> | undefined) {
  const clock = {
    waited: 0,
    pause(): Promise<void> | undefined {
      const waiting = pause();
      if (!waiting) return undefined;
      const from = performance.now();
      return waiting.then(() => {
        clock.waited += performance.now() - from;
      });
    },
  };
  return clock;
}

/**
 * Parses and validates every file into `spool` (a file found damaged part-way, or slower than
 * its time, is cut from it and skipped whole, with the reason); each file is removed once read.
 * `pause` lets other work run now and then (other imports on the parse
 * thread); `onRow` is told of every row written. More rows than the limit: a 413.
 */
export async function spoolRows(
  input: PassOneInput,
  spool: Spool,
  pause: () => Promise<void> | undefined = () => undefined,
  onRow: (rows: number) => void = () => undefined,
): Promise<PassOneResult> {
  const parseOptions = {
    mapping: input.mapping,
    accountUnits: input.user.units,
    expansion: { most: input.limits.expandedBytes, left: input.limits.expandedBytes },
    fileSeconds: input.limits.fileSeconds,
  };
  const { limits } = input;
  const excluded = new Set(input.exclude);
  const clock = timed(pause);
  const result: PassOneResult = { created: 0, skipped: 0, groups: 0, shoes: [], goals: [] };
  const skip = (source: string, reason: string, columns: string[] | null = null) => {
    spool.write([0, source, reason, columns] satisfies SkipLine);
    result.skipped += 1;
  };
  for (const file of input.files) {
    const upload = openUpload(file.path);
    try {
      const groups = parseUpload(file.name, upload, parseOptions);
      for (;;) {
        let group: Awaited<ReturnType<typeof groups.next>>;
        try {
          group = await groups.next();
        } catch (error) {
          // An archive that fails between its members: what it gave stays, the rest is skipped.
          if (error instanceof AppError) throw error;
          skip(file.name, error instanceof Unreadable ? error.message : UNEXPECTED);
          break;
        }
        if (group.done) break;
        const { group: name, rows, extras } = group.value;
        const mark = spool.mark();
        const before = { created: result.created, skipped: result.skipped };
        const groupIndex = result.groups;
        const startedAt = performance.now();
        const waitedBefore = clock.waited;
        try {
          for await (const row of rows) {
            await clock.pause();
            if (performance.now() - startedAt - (clock.waited - waitedBefore) > limits.fileSeconds * 1000) {
              throw tooSlow(limits.fileSeconds);
            }
            if (!('run' in row) && !('skip' in row)) continue;
            if (excluded.has(row.source)) skip(row.source, LEFT_OUT);
            else if ('skip' in row) skip(row.source, row.skip, row.columns ?? null);
            else {
              const values = validate(input.user, row.run, input.today);
              if (typeof values === 'string') skip(row.source, values);
              else {
                spool.write([
                  1,
                  row.source,
                  groupIndex,
                  values.date,
                  values.distanceKm,
                  values.seconds,
                  values.title,
                  values.notes,
                  values.kind,
                  values.effort,
                  row.run.shoe ?? null,
                  ...spooledTrack(spool, row.run),
                ] satisfies RunLine);
                result.created += 1;
              }
            }
            if (spool.lines > limits.rows) throw tooManyRows(limits.rows);
            onRow(spool.lines);
          }
        } catch (error) {
          if (error instanceof AppError) throw error;
          // A file found damaged part-way is skipped whole, with the reason; so is one that broke
          // a parser in a way nobody foresaw: one bad file never blocks the others.
          spool.cut(mark);
          result.created = before.created;
          result.skipped = before.skipped;
          const damage = error instanceof Unreadable ? error : null;
          skip(damage?.source ?? name, damage?.message ?? UNEXPECTED);
          continue;
        }
        result.groups += 1;
        const found = extras?.();
        if (found) {
          found.shoes.forEach((shoe, i) => {
            const parsed = ShoeBodySchema.safeParse(shoe);
            if (parsed.success) result.shoes.push({ source: `${name}#shoes/${i + 1}`, body: parsed.data });
          });
          result.goals.push(...validItems<GoalBody>(found.goals, GoalBodySchema));
        }
      }
    } finally {
      upload.close();
    }
    // Read to its end: its place on disk is given back before the runs are stored.
    await fs.promises.rm(file.path, { force: true });
  }
  spool.flush();
  return result;
}
