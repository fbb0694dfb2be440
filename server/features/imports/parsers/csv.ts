/**
 * CSV files: this server's export, Strava's activities.csv, Garmin Connect's Activities.csv,
 * or any CSV with a column mapping. A CSV of none of these kinds, without a mapping, is one
 * skipped row that lists its columns. Sources are "<file>:<line>", the header being line 1.
 */
import { Readable, Transform } from 'node:stream';
import { parse } from 'csv-parse';
import { importedCsvText, type ImportMapping } from '../../../../core/imports.js';
import { isValidDate } from '../../../../core/time.js';
import { KM_PER_MILE, type Units } from '../../../../core/units.js';
import {
  Unreadable,
  looseDuration,
  looseNumber,
  notARun,
  text,
  type ByteSource,
  type Candidate,
  type ParsedRow,
} from './types.js';

export interface CsvOptions {
  mapping?: ImportMapping | undefined;
  /** Garmin Connect writes distances in the account's unit. */
  accountUnits: Units;
}

const STRAVA_RUNS = new Set(['run', 'trail run', 'virtual run']);
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Strava's Activity Date, in UTC: "Mar 12, 2024, 6:00:00 PM" (or "12 Mar 2024, 18:00:00"). */
export function stravaDate(value: string): Date | null {
  const text = value.trim();
  const us = /^([a-z]{3})[a-z]*\.? (\d{1,2}), (\d{4}),? (\d{1,2}):(\d{2}):(\d{2})\s*([ap]m)?$/i.exec(text);
  const eu = us ? null : /^(\d{1,2}) ([a-z]{3})[a-z]*\.? (\d{4}),? (\d{1,2}):(\d{2}):(\d{2})$/i.exec(text);
  const [mon, day, year, h, m, s, half] = us
    ? [us[1]!, us[2]!, us[3]!, us[4]!, us[5]!, us[6]!, us[7]]
    : eu
      ? [eu[2]!, eu[1]!, eu[3]!, eu[4]!, eu[5]!, eu[6]!, undefined]
      : [];
  const month = MONTHS.indexOf((mon ?? '').toLowerCase());
  if (month < 0) return null;
  let hour = Number(h);
  if (half) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (half.toLowerCase() === 'pm' ? 12 : 0);
  }
  const ms = Date.UTC(Number(year), month, Number(day), hour, Number(m), Number(s));
  const date = new Date(ms);
  return date.getUTCDate() === Number(day) ? date : null;
}

/** A date column: "YYYY-MM-DD" (with any time after it, read as local) or an instant with its offset. */
function localDate(value: string | undefined): { date?: string; start?: Date } | null {
  const t = (value ?? '').trim();
  const ymd = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/.exec(t);
  if (ymd) return isValidDate(t.slice(0, 10)) ? { date: t.slice(0, 10) } : null;
  if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/i.test(t)) {
    const start = new Date(t);
    return Number.isNaN(start.getTime()) ? null : { start };
  }
  const strava = stravaDate(t);
  return strava ? { start: strava } : null;
}

/** Header names to indexes; a repeated name keeps all its positions, in order. */
function indexHeader(header: string[]): Map<string, number[]> {
  const at = new Map<string, number[]>();
  header.forEach((name, i) => {
    const key = name.trim().toLowerCase();
    const positions = at.get(key);
    if (positions) positions.push(i);
    else at.set(key, [i]);
  });
  return at;
}

/** The most columns a line may have (Strava's activities.csv has about 90). */
export const MAX_CSV_COLUMNS = 1000;
/** The longest header line, in bytes. */
export const MAX_CSV_HEADER_BYTES = 64 * 1024;
/** The longest line after the header, in bytes (a run's notes are at most 2,000 characters). */
export const MAX_CSV_LINE_BYTES = 1024 * 1024;

const COMMA = 0x2c;
const QUOTE = 0x22;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * The bytes of a CSV file as they pass, with every line held to MAX_CSV_COLUMNS columns and
 * its length in bytes (the header to MAX_CSV_HEADER_BYTES): the parser would build a line
 * of a million empty columns in full before anything could look at it. Commas and line breaks
 * inside quotes are not counted (a quote opens or closes a quoted stretch; a doubled quote
 * does both); a file that quotes otherwise is refused by the parser itself.
 */
function boundedLines(source: string): Transform {
  let quoted = false;
  let columns = 1;
  let bytes = 0;
  // Blank lines before the header are skipped by the parser: the header is the first line with text.
  let header = true;
  let blank = true;
  const tooLong = () =>
    bytes > (header ? MAX_CSV_HEADER_BYTES : MAX_CSV_LINE_BYTES)
      ? new Unreadable(
          header
            ? `The header of the CSV file is longer than ${MAX_CSV_HEADER_BYTES / 1024} KiB.`
            : `A line of the CSV file is longer than ${MAX_CSV_LINE_BYTES / 1024 / 1024} MiB.`,
          source,
        )
      : null;
  const tooWide = new Unreadable(
    `A line of the CSV file has more than ${MAX_CSV_COLUMNS.toLocaleString('en')} columns.`,
    source,
  );
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let lineStart = -bytes;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i]!;
        if (byte === QUOTE) quoted = !quoted;
        else if (!quoted && byte === COMMA) {
          if (++columns > MAX_CSV_COLUMNS) return done(tooWide);
        } else if (!quoted && byte === NEWLINE) {
          bytes = i + 1 - lineStart;
          const error = tooLong();
          if (error) return done(error);
          if (!blank) header = false;
          blank = true;
          columns = 1;
          lineStart = i + 1;
          continue;
        }
        if (blank && byte !== CARRIAGE_RETURN) blank = false;
      }
      bytes = chunk.length - lineStart;
      const error = tooLong();
      if (error) done(error);
      else done(null, chunk);
    },
  });
}

type Kind = 'own' | 'strava' | 'garmin' | 'mapped';

function kindOf(columns: Map<string, number[]>, mapping: ImportMapping | undefined): Kind | null {
  const has = (...names: string[]) => names.every((n) => columns.has(n));
  if (has('date', 'distance_km', 'time')) return 'own';
  if (has('activity date', 'activity type', 'elapsed time', 'distance')) return 'strava';
  if (has('activity type', 'date', 'distance', 'time')) return 'garmin';
  if (mapping) return 'mapped';
  return null;
}

const positive = (n: number | null): n is number => n !== null && n > 0;

/** The bytes of a source, a chunk at a time. */
export function* chunksOf(bytes: ByteSource): Generator<Uint8Array> {
  for (let at = 0; at < bytes.size; at += CHUNK) yield bytes.read(at, CHUNK);
}

const CHUNK = 64 * 1024;

/**
 * The rows of a CSV file, parsed as a stream: one record is held at a time, never the file's
 * records together (its bytes come from a source or as a stream, e.g. a gzip file inflated as it
 * is read). A Strava file, once read to its end without damage, adds the names of the
 * files its rows name to `names`. A damaged file throws Unreadable when the parser reaches the
 * damage (the caller drops the rows the file gave before it: one reason for the whole file).
 */
export async function* parseCsv(
  source: string,
  bytes: ByteSource | AsyncIterable<Uint8Array>,
  options: CsvOptions,
  names: Set<string> = new Set(),
): AsyncGenerator<ParsedRow> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: false });
  const input = Readable.from(Symbol.asyncIterator in bytes ? bytes : chunksOf(bytes), { objectMode: false });
  const lines = boundedLines(source);
  input.on('error', (error) => lines.destroy(error));
  lines.on('error', (error) => parser.destroy(error));
  input.pipe(lines).pipe(parser);
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  const next = async (): Promise<string[] | undefined> => {
    try {
      const step = await records.next();
      return step.done ? undefined : step.value;
    } catch (error) {
      if (error instanceof Unreadable) throw error;
      const detail = error instanceof Error && 'lines' in error ? ` near line ${String(error.lines)}` : '';
      throw new Unreadable(`The CSV file is damaged${detail} (unbalanced quotes or a binary file?).`, source);
    }
  };
  try {
    const header = await next();
    if (!header) {
      yield { source, skip: 'The CSV file is empty.' };
      return;
    }
    const columns = indexHeader(header);
    const kind = kindOf(columns, options.mapping);
    if (!kind) {
      // The whole file is read all the same: a damaged file is said to be damaged.
      while (await next());
      yield {
        source,
        skip: 'This CSV is not one this server recognises: say which column holds the date, distance and time.',
        columns: header.map((h) => h.trim()),
      };
      return;
    }
    if (kind === 'mapped') {
      const mapping = options.mapping!;
      const missing = [mapping.date, mapping.distance, mapping.time, mapping.title, mapping.notes].find(
        (name) => name !== undefined && !columns.has(name.toLowerCase()),
      );
      if (missing !== undefined) {
        while (await next());
        yield { source, skip: `The mapping names a column the file lacks ("${missing}").`, columns: header };
        return;
      }
    }
    let record: string[] | undefined;
    const cell: Cell = (name, nth = 0) => {
      const i = columns.get(name.toLowerCase())?.[nth];
      return i === undefined ? undefined : record![i];
    };
    const named = new Set<string>();
    for (let line = 2; (record = await next()); line++) {
      const where = `${source}:${line}`;
      if (kind === 'own') record = record.map(importedCsvText);
      const row = readRecord(kind, cell, options);
      if (row.named && kind === 'strava') named.add(row.named);
      if ('partial' in row) yield { source: where, named: row.named, partial: row.partial };
      else if ('run' in row) yield { source: where, run: row.run };
      else yield { source: where, skip: row.skip };
    }
    for (const name of named) names.add(name);
  } finally {
    input.destroy();
    lines.destroy();
    parser.destroy();
  }
}

type Cell = (name: string, nth?: number) => string | undefined;
type RowBody =
  | { run: Candidate; named?: string }
  | { skip: string; named?: string }
  | Omit<Extract<ParsedRow, { named: string }>, 'source'>;

function readRecord(kind: Kind, cell: Cell, options: CsvOptions): RowBody {
  switch (kind) {
    case 'own':
      return ownRow(cell);
    case 'strava':
      return stravaRow(cell);
    case 'garmin':
      return garminRow(cell, options.accountUnits);
    case 'mapped':
      return mappedRow(cell, options.mapping!);
  }
}

const numberOr = (value: number | null, fallback: number) => (value === null ? fallback : value);

function ownRow(cell: Cell): RowBody {
  const date = text(cell('date'));
  if (!date) return { skip: 'The date field is required.' };
  const shoe = text(cell('shoe'));
  return {
    run: {
      ownExport: true,
      date,
      distanceKm: numberOr(looseNumber(cell('distance_km')), NaN),
      seconds: numberOr(looseDuration(cell('time')), NaN),
      title: text(cell('title')) ?? null,
      notes: text(cell('notes')) ?? null,
      kind: text(cell('kind')) ?? null,
      effort: text(cell('effort')) ?? null,
      shoe: shoe ?? null,
    },
  };
}

function stravaRow(cell: Cell): RowBody {
  const file = text(cell('filename'));
  const named = file ? file.replace(/^\.?\//, '') : undefined;
  const type = text(cell('activity type')) ?? '';
  if (!STRAVA_RUNS.has(type.toLowerCase())) return { skip: notARun(type), ...(named ? { named } : {}) };
  const start = stravaDate(cell('activity date') ?? '');
  if (!start) return { skip: 'The Activity Date is not a date Strava writes ("Mar 12, 2024, 6:00:00 PM").' };
  // The second Distance column is the precise one, in metres; the first is in the account's unit, rounded.
  const metres = looseNumber(cell('distance', 1));
  const distanceKm = positive(metres) ? metres / 1000 : looseNumber(cell('distance', 0));
  const moving = looseDuration(cell('moving time'));
  const elapsed = looseDuration(cell('elapsed time', 1)) ?? looseDuration(cell('elapsed time', 0));
  const seconds = positive(moving) ? moving : elapsed;
  const partial = {
    start,
    title: text(cell('activity name')) ?? null,
    notes: text(cell('activity description')) ?? null,
  };
  // A row that names its file takes the file's track (§13), and its numbers when it has none.
  if (named)
    return positive(distanceKm) && positive(seconds)
      ? { named, partial: { ...partial, distanceKm, seconds } }
      : { named, partial };
  if (positive(distanceKm) && positive(seconds)) return { run: { ...partial, distanceKm, seconds } };
  return { run: { ...partial, distanceKm: distanceKm ?? NaN, seconds: seconds ?? NaN } };
}

function garminRow(cell: Cell, units: Units): RowBody {
  const type = text(cell('activity type')) ?? '';
  if (!/running/i.test(type)) return { skip: notARun(type) };
  const when = localDate(cell('date'));
  if (!when) return { skip: 'The Date is not a date ("2024-03-12 18:00:00").' };
  const distance = looseNumber(cell('distance'));
  return {
    run: {
      ...when,
      distanceKm: distance === null ? NaN : units === 'mi' ? distance * KM_PER_MILE : distance,
      seconds: numberOr(looseDuration(cell('time')), NaN),
      title: text(cell('title')) ?? null,
    },
  };
}

const UNIT_KM = { km: 1, mi: KM_PER_MILE, m: 0.001 } as const;

function mappedRow(cell: Cell, mapping: ImportMapping): RowBody {
  const when = localDate(cell(mapping.date));
  if (!when) return { skip: `The ${mapping.date} column does not hold a date (YYYY-MM-DD).` };
  const distance = looseNumber(cell(mapping.distance));
  return {
    run: {
      ...when,
      distanceKm: distance === null ? NaN : distance * UNIT_KM[mapping.distance_unit],
      seconds: numberOr(looseDuration(cell(mapping.time)), NaN),
      title: mapping.title ? (text(cell(mapping.title)) ?? null) : undefined,
      notes: mapping.notes ? (text(cell(mapping.notes)) ?? null) : undefined,
    },
  };
}
