/**
 * Import and export of runs (CONTRACT.md §9). An import parses every file (parsers/), turns
 * each run into the values `POST /entry` would store (same validation), tells duplicates
 * apart, and stores the new runs, shoes and goals in one transaction in which the runner is
 * locked, so that the same file sent twice at once creates each run once. Files are read where
 * they lie (the upload's temporary files), CSVs as streams, and each row is kept small until
 * the answer is written: memory does not grow with the upload, and little with its rows.
 */
import fs from 'node:fs';
import { GoalBodySchema, type GoalBody } from '../../../core/goals.js';
import {
  EXPORT_CSV_COLUMNS,
  EXPORT_FORMAT_NAME,
  EXPORT_VERSION,
  type ImportMapping,
  type ImportRow,
  type ImportedEntry,
} from '../../../core/imports.js';
import { EntryBodySchema, type Entry, type User } from '../../../core/schemas.js';
import { ShoeBodySchema, type ShoeBody } from '../../../core/shoes.js';
import { dateInZone, formatDuration, paceMinPerKm, round2, speedKmh } from '../../../core/time.js';
import { inTransaction, nowIso, type AppContext } from '../../context.js';
import { lockRunner } from '../../db/locks.js';
import { AppError } from '../../errors.js';
import { insertManyRuns, ownRunsAfter, toValues, type EntryValues } from '../entries/entries.service.js';
import { importGoals, listGoals } from '../goals/goals.service.js';
import { importShoes, listShoes, shoeForRun } from '../shoes/shoes.service.js';
import * as imports from './imports.repository.js';
import { parseUpload } from './parsers/files.js';
import { Unreadable, type ByteSource, type Candidate } from './parsers/types.js';
import { plainEntryBody, type EntryInput } from './plain-entry.js';

/** An uploaded file, on disk for as long as the import runs. */
export interface UploadedFile {
  name: string;
  path: string;
}

export interface ImportOptions {
  dryRun: boolean;
  mapping?: ImportMapping | undefined;
}

type Importer = Pick<User, 'id' | 'timezone' | 'units'>;

/**
 * A row of the answer as the import keeps it until it is written: small, because an import
 * may have 100,000 of them. A run's entry is made from its values (and its id once stored)
 * only when the answer is written.
 */
interface Row {
  source: string;
  status: ImportRow['status'];
  reason?: string;
  columns?: string[];
  /** A run that passed validation. */
  run?: Accepted;
}

/** A run that passed validation, waiting for the duplicate test. */
interface Accepted {
  group: string;
  values: EntryValues;
  distanceM: number;
  shoe: string | null | undefined;
  id?: number;
}

/** What an import did: the counts, and its rows, each made as the answer is written. */
export interface ImportSummary {
  created: number;
  duplicates: number;
  skipped: number;
  rows(): Generator<ImportRow>;
}

/** Distances half-up to the metre and durations to the second, before validation and the duplicate test. */
const metresOf = (km: number) => Math.round(km * 1000 + 1e-7);

/** §9's match: same date, distances within 1% of the larger, times within max(5 s, 1% of the longer). */
/** §9's match: same date, distances within 1% of the larger, times within max(5 s, 1% of the longer). */
export function sameRun(a: imports.StoredRun, b: imports.StoredRun): boolean {
  if (a.date !== b.date) return false;
  if (Math.abs(a.distanceM - b.distanceM) > 0.01 * Math.max(a.distanceM, b.distanceM)) return false;
  return Math.abs(a.seconds - b.seconds) <= Math.max(5, 0.01 * Math.max(a.seconds, b.seconds));
}

/** A candidate as `POST /entry` would take it, or the first validation message. */
function validate(ctx: AppContext, user: Importer, run: Candidate, today: string): EntryValues | string {
  const metres = Number.isFinite(run.distanceKm) ? metresOf(run.distanceKm) : NaN;
  const seconds = Number.isFinite(run.seconds) ? Math.round(run.seconds) : NaN;
  const body: EntryInput = {
    date: run.date ?? (run.start ? dateInZone(run.start, user.timezone) : undefined),
    distance: Number.isNaN(metres) ? undefined : metres / 1000,
    time: Number.isNaN(seconds) ? undefined : seconds < 0 ? '-' : formatDuration(seconds),
    title: run.title ?? null,
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
    return toValues(ctx, user, valid, today);
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
}

function preview(userId: number, values: EntryValues, shoeId: number | null): ImportedEntry {
  return {
    user_id: userId,
    date: values.date,
    distance: values.distanceKm,
    time: formatDuration(values.seconds),
    speed: round2(speedKmh(values.distanceKm, values.seconds)),
    pace: round2(paceMinPerKm(values.distanceKm, values.seconds)),
    title: values.title ?? null,
    notes: values.notes ?? null,
    kind: values.kind ?? null,
    effort: values.effort ?? null,
    shoe_id: shoeId,
  };
}

const validItems = <T>(
  items: Record<string, unknown>[],
  schema: { safeParse(v: unknown): { success: boolean; data?: T } },
) =>
  items.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data as T] : [];
  });

/** Reads an uploaded file where it lies, a piece at a time. */
function openUpload(path: string): ByteSource & { close(): void } {
  const fd = fs.openSync(path, 'r');
  return {
    size: fs.fstatSync(fd).size,
    read(at, length) {
      const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, this.size - at)));
      const read = buffer.length > 0 ? fs.readSync(fd, buffer, 0, buffer.length, at) : 0;
      return buffer.subarray(0, read);
    },
    close: () => fs.closeSync(fd),
  };
}

export async function importRuns(
  ctx: AppContext,
  user: Importer,
  files: UploadedFile[],
  options: ImportOptions,
): Promise<ImportSummary> {
  const rows: Row[] = [];
  const accepted: Accepted[] = [];
  const groups = new Set<string>();
  const shoes: ShoeBody[] = [];
  const goals: GoalBody[] = [];
  const today = dateInZone(ctx.config.now(), user.timezone);
  const parseOptions = { mapping: options.mapping, accountUnits: user.units };
  for (const file of files) {
    const upload = openUpload(file.path);
    try {
      for await (const group of parseUpload(file.name, upload, parseOptions)) {
        const rowsBefore = rows.length;
        const acceptedBefore = accepted.length;
        try {
          for await (const row of group.rows) {
            if ('run' in row) {
              const values = validate(ctx, user, row.run, today);
              if (typeof values === 'string') {
                rows.push({ source: row.source, status: 'skipped', reason: values });
                continue;
              }
              const run: Accepted = {
                group: group.group,
                values,
                distanceM: metresOf(values.distanceKm),
                shoe: row.run.shoe,
              };
              accepted.push(run);
              rows.push({ source: row.source, status: 'would_create', run });
            } else if ('skip' in row) {
              rows.push({
                source: row.source,
                status: 'skipped',
                reason: row.skip,
                ...(row.columns ? { columns: row.columns } : {}),
              });
            }
          }
        } catch (error) {
          if (!(error instanceof Unreadable)) throw error;
          // A file found damaged part-way is skipped whole, with the reason.
          rows.length = rowsBefore;
          accepted.length = acceptedBefore;
          rows.push({ source: error.source ?? group.group, status: 'skipped', reason: error.message });
          continue;
        }
        groups.add(group.group);
        const extras = group.extras?.();
        if (extras) {
          shoes.push(...validItems<ShoeBody>(extras.shoes, ShoeBodySchema));
          goals.push(...validItems<GoalBody>(extras.goals, GoalBodySchema));
        }
      }
    } finally {
      upload.close();
    }
  }

  const defaultShoe = accepted.some((a) => a.shoe === undefined)
    ? await shoeForRun(ctx, user.id, undefined, true)
    : null;
  let from: string | undefined;
  let to: string | undefined;
  for (const run of accepted) {
    if (from === undefined || run.values.date < from) from = run.values.date;
    if (to === undefined || run.values.date > to) to = run.values.date;
  }
  // Runs of other files are only compared when there are other files.
  const severalFiles = groups.size > 1;
  const decide = async (db: AppContext['db'], shoeIds: Map<string, number>) => {
    const stored = from && to ? await imports.storedRunsBetween(db, user.id, from, to) : [];
    const storedByDate = new Map<string, (imports.StoredRun & { used?: boolean })[]>();
    for (const run of stored) {
      const day = storedByDate.get(run.date);
      if (day) day.push(run);
      else storedByDate.set(run.date, [run]);
    }
    const brought = new Map<string, (imports.StoredRun & { group: string; source: string })[]>();
    const fresh: Accepted[] = [];
    for (const row of rows) {
      const run = row.run;
      if (!run) continue;
      const me = { date: run.values.date, distanceM: run.distanceM, seconds: run.values.seconds };
      const twin = storedByDate.get(me.date)?.find((s) => !s.used && sameRun(s, me));
      const sibling = twin ? undefined : brought.get(me.date)?.find((b) => b.group !== run.group && sameRun(b, me));
      if (twin) twin.used = true;
      if (severalFiles) {
        const day = brought.get(me.date);
        const mine = { ...me, group: run.group, source: row.source };
        if (day) day.push(mine);
        else brought.set(me.date, [mine]);
      }
      if (twin || sibling) {
        row.status = 'duplicate';
        row.reason = twin
          ? 'A run of the same day, distance and time is already stored.'
          : `The same run as ${sibling!.source}.`;
        delete row.run;
        continue;
      }
      run.values.shoeId =
        run.shoe === undefined ? (defaultShoe ?? null) : run.shoe === null ? null : (shoeIds.get(run.shoe) ?? null);
      fresh.push(run);
    }
    return fresh;
  };

  let now = nowIso(ctx);
  if (options.dryRun) {
    await decide(ctx.db, new Map((await listShoes(ctx, user.id)).map((s) => [s.name, s.id])));
  } else {
    await inTransaction(ctx, async (trx) => {
      await lockRunner(trx, user.id);
      now = nowIso(ctx);
      const shoeIds = await importShoes(trx, user.id, shoes, now);
      const fresh = await decide(trx, shoeIds);
      const ids = await insertManyRuns(
        trx,
        user.id,
        fresh.map((run) => run.values),
        now,
      );
      fresh.forEach((run, i) => (run.id = ids[i]!));
      if (goals.length > 0) await importGoals(trx, user.id, goals, now);
    });
  }
  const counts = { created: 0, duplicates: 0, skipped: 0 };
  for (const row of rows) {
    if (row.status === 'duplicate') counts.duplicates += 1;
    else if (row.status === 'skipped') counts.skipped += 1;
    else {
      if (!options.dryRun) row.status = 'created';
      counts.created += 1;
    }
  }
  return {
    ...counts,
    *rows() {
      for (const row of rows) {
        const out: ImportRow = { source: row.source, status: row.status };
        if (row.reason !== undefined) out.reason = row.reason;
        if (row.run) {
          const entry = preview(user.id, row.run.values, row.run.values.shoeId ?? null);
          out.entry = row.run.id === undefined ? entry : { id: row.run.id, ...entry, created_at: now, updated_at: now };
        }
        if (row.columns) out.columns = row.columns;
        yield out;
      }
    },
  };
}

// ---- Export ----

/** Runs a page of the export: a page is read, written and let go before the next is read. */
const PAGE = 1000;

/** Every run of the runner, oldest first, a page at a time. */
async function* everyRun(ctx: AppContext, userId: number): AsyncGenerator<Entry[]> {
  let after: { date: string; id: number } | null = null;
  for (;;) {
    const page = await ownRunsAfter(ctx, userId, after, PAGE);
    if (page.length > 0) yield page;
    if (page.length < PAGE) return;
    const last = page.at(-1)!;
    after = { date: last.date, id: last.id };
  }
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV export, in chunks of text. */
export async function* exportCsv(ctx: AppContext, userId: number): AsyncGenerator<string> {
  const shoeNames = new Map((await listShoes(ctx, userId)).map((s) => [s.id, s.name]));
  yield `${EXPORT_CSV_COLUMNS.join(',')}\r\n`;
  for await (const page of everyRun(ctx, userId)) {
    let chunk = '';
    for (const e of page) {
      const shoe = e.shoe_id === null ? null : (shoeNames.get(e.shoe_id) ?? null);
      chunk += `${e.date},${e.distance},${e.time},${csvField(e.title)},${csvField(e.notes)},${e.kind ?? ''},${e.effort ?? ''},${csvField(shoe)}\r\n`;
    }
    yield chunk;
  }
}

/** One run of the JSON export: the fields of an Entry, in its order, and its shoe's name. */
function jsonRun(e: Entry, shoe: string | null): string {
  const text = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));
  return (
    `{"id":${e.id},"user_id":${e.user_id},"date":"${e.date}","distance":${e.distance},"time":"${e.time}",` +
    `"speed":${e.speed},"pace":${e.pace},"title":${text(e.title)},"notes":${text(e.notes)},` +
    `"kind":${text(e.kind)},"effort":${e.effort ?? 'null'},"shoe_id":${e.shoe_id ?? 'null'},` +
    `"created_at":${text(e.created_at)},"updated_at":${text(e.updated_at)},"shoe":${text(shoe)}}`
  );
}

/**
 * The JSON export, in chunks of text: the runner, their shoes and goals, then every run, one
 * chunk per page of runs (read by key, never by offset), each written as it is read.
 */
export async function* exportJson(
  ctx: AppContext,
  user: Pick<User, 'id' | 'name' | 'email' | 'timezone' | 'units'>,
): AsyncGenerator<string> {
  const shoes = await listShoes(ctx, user.id);
  const goals = await listGoals(ctx, user);
  const shoeNames = new Map(shoes.map((s) => [s.id, s.name]));
  const head = {
    format: EXPORT_FORMAT_NAME,
    version: EXPORT_VERSION,
    exported_at: nowIso(ctx),
    user: { name: user.name, email: user.email, timezone: user.timezone, units: user.units },
    shoes,
    goals,
  };
  yield `${JSON.stringify(head).slice(0, -1)},"entries":[`;
  let separator = '\n';
  for await (const page of everyRun(ctx, user.id)) {
    let chunk = '';
    for (const e of page) {
      chunk += separator + jsonRun(e, e.shoe_id === null ? null : (shoeNames.get(e.shoe_id) ?? null));
      separator = ',\n';
    }
    yield chunk;
  }
  yield '\n]}\n';
}
