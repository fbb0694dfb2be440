/**
 * From uploaded files to rows: each file is recognised by its content (gzip, zip, FIT) or its
 * name (.tcx, .gpx, .csv, .json), expanded with bounds, and parsed. A file that cannot be read
 * is one skipped row with the reason; nothing here throws for bad input.
 */
import { gunzipBounded, gunzippedSize, gunzipStream, isGzip, MiB, tooLarge } from './inflate.js';
import { chunksOf, parseCsv, type CsvOptions } from './csv.js';
import { isFit, parseFit } from './fit.js';
import { parseGpx } from './gpx.js';
import { parseJson } from './json.js';
import { parseTcx } from './tcx.js';
import { sameRunNumbers } from '../../../../core/imports.js';
import {
  Budget,
  memorySource,
  skipFile,
  Unreadable,
  type ByteSource,
  type Candidate,
  type Extras,
  type ParsedFile,
  type ParsedRow,
} from './types.js';
import { freshBounds, isZip, openZip, type ZipArchive, type ZipBounds, type ZipMember } from './zip.js';

/** The most one file may expand to (an activity file, or one CSV or JSON export). */
export const MAX_FILE_BYTES = 128 * MiB;

export interface ParseOptions extends CsvOptions {
  /**
   * What the import's files may expand to in all (from gzip files and archives), and what is
   * left of it: each expansion takes its share before it begins.
   */
  expansion: { most: number; left: number };
  /** Seconds the parsing of one activity file may take (checked inside its parser). */
  fileSeconds: number;
}

const sizeText = (bytes: number) =>
  bytes >= 1024 * MiB && bytes % (1024 * MiB) === 0
    ? `${bytes / 1024 / MiB} GiB`
    : bytes >= MiB
      ? `${Math.round(bytes / MiB)} MiB`
      : `${Math.round(bytes / 1024)} KiB`;

/** Takes `bytes` from what the import may still expand, or refuses the file. */
function spend(options: ParseOptions, bytes: number): void {
  const { expansion } = options;
  if (bytes > expansion.left) {
    throw new Unreadable(
      `The files of this import expand to more than ${sizeText(expansion.most)} in all: this one was not read.`,
    );
  }
  expansion.left -= bytes;
}

/**
 * The rows of one file, as they are parsed: rows of one group are never duplicates of each
 * other. `rows` is read to its end before the next group is asked for; it may throw
 * Unreadable part-way (a damaged CSV), and then the whole file is skipped with that reason.
 */
export interface FileRows {
  group: string;
  rows: AsyncIterable<ParsedRow> | Iterable<ParsedRow>;
  /** Known once `rows` is read. */
  extras?: () => Extras | undefined;
}

const UNSUPPORTED =
  'This file type is not supported: send .fit, .tcx, .gpx, .csv, .json or .zip files (each possibly gzipped).';
const ACTIVITY = /\.(fit|tcx|gpx)(\.gz)?$/i;
/** A member read as an archive of its own (one level down: CONTRACT.md §20, "Nested zips"). */
const NESTED_ZIP = /\.zip$/i;
const TOO_DEEP = 'Zips nested more than one level deep are not read.';

function lowerExtension(name: string): string {
  const match = /\.([a-z0-9]+)$/i.exec(name);
  return match ? match[1]!.toLowerCase() : '';
}

/**
 * A parsed file, or the rows of a CSV file as they are read (with the names of the files a
 * Strava file's rows name), or those of a JSON export (with its shoes and goals, and the names of
 * the files its rows name, once read).
 */
type Single =
  | ParsedFile
  | { csv: AsyncGenerator<ParsedRow>; names: Set<string> }
  | { json: AsyncGenerator<ParsedRow>; extras: () => Extras | undefined; names: Set<string> };

export type ActivityKind = 'fit' | 'tcx' | 'gpx';
const ACTIVITY_KINDS = new Set<string>(['fit', 'tcx', 'gpx']);
type ActivityParser = (source: string, bytes: Uint8Array, budget: Budget) => ParsedFile;
const PARSERS: Record<ActivityKind, ActivityParser> = {
  fit: parseFit,
  tcx: parseTcx,
  gpx: parseGpx,
};

/** Bytes of a file's start that tell its kind. */
export const KIND_BYTES = 512;

/** The activity kind a name's extension says, or null. */
export function activityKindOfName(name: string): ActivityKind | null {
  const extension = lowerExtension(name);
  return ACTIVITY_KINDS.has(extension) ? (extension as ActivityKind) : null;
}

/**
 * Which activity file this is, as an import reads it: a FIT header whatever the name, else the
 * name's extension, else (a name that says neither an activity nor an export) GPX's or TCX's
 * root in its first bytes (`head`); null when it is no activity file.
 */
export function activityKind(name: string, head: Uint8Array): ActivityKind | null {
  if (isFit(head)) return 'fit';
  const extension = lowerExtension(name);
  if (extension === 'csv' || extension === 'json') return null;
  const named = activityKindOfName(name);
  if (named) return named;
  const text = new TextDecoder().decode(head.subarray(0, KIND_BYTES)).trimStart();
  if (text.startsWith('<') && text.includes('<gpx')) return 'gpx';
  if (text.startsWith('<') && text.includes('TrainingCenterDatabase')) return 'tcx';
  return null;
}

/** One file that is not an archive. */
async function parseSingle(name: string, file: ByteSource, options: ParseOptions, gzipped = false): Promise<Single> {
  try {
    const head = file.read(0, KIND_BYTES);
    if (isGzip(head)) {
      if (gzipped) return skipFile(name, 'The file is gzipped twice.');
      const inner = name.replace(/\.gz$/i, '');
      const kind = lowerExtension(inner);
      if (kind === 'csv' || kind === 'json') {
        // Its size is known before a line is parsed (a bomb costs the inflation, never the
        // parsing); then the export is inflated again as it is parsed, never held whole.
        spend(options, await gunzippedSize(chunksOf(file), MAX_FILE_BYTES));
        const inflated = gunzipStream(chunksOf(file), MAX_FILE_BYTES);
        if (kind === 'json') return parseJson(inner, inflated);
        const names = new Set<string>();
        return { csv: parseCsv(inner, inflated, options, names), names };
      }
      const bytes = gunzipBounded(file.read(0, file.size), MAX_FILE_BYTES);
      spend(options, bytes.length);
      return await parseSingle(inner, memorySource(bytes), options, true);
    }
    if (isZip(head)) return skipFile(name, 'Archives inside archives or gzip files are not read.');
    const activity = activityKind(name, head);
    if (activity) {
      return withOriginal(name, file.read(0, file.size), PARSERS[activity], new Budget(options.fileSeconds));
    }
    switch (lowerExtension(name)) {
      case 'csv': {
        const names = new Set<string>();
        return { csv: parseCsv(name, file, options, names), names };
      }
      case 'json':
        return parseJson(name, chunksOf(file));
    }
    if (new TextDecoder().decode(head).trimStart().startsWith('{')) return parseJson(name, chunksOf(file));
    return skipFile(name, UNSUPPORTED);
  } catch (error) {
    if (error instanceof Unreadable) return skipFile(name, error.message);
    if (error instanceof RangeError) return skipFile(name, 'The file is damaged and could not be read.');
    throw error;
  }
}

/**
 * An activity file parsed, each run with a track keeping the file (§13): its own base name (a
 * member's without its folders) and its bytes as parsed, un-gzipped.
 */
function withOriginal(name: string, bytes: Uint8Array, parse: ActivityParser, budget: Budget): ParsedFile {
  const parsed = parse(name, bytes, budget);
  const original = { name: name.slice(name.lastIndexOf('/') + 1), bytes };
  return {
    ...parsed,
    rows: parsed.rows.map((row) => ('run' in row && row.run.track ? { ...row, run: { ...row.run, original } } : row)),
  };
}

/** The rows of a parsed file; a CSV's and a JSON export's rows are parsed as they are read. */
function rowsOf(single: Single): AsyncIterable<ParsedRow> | Iterable<ParsedRow> {
  return 'csv' in single ? single.csv : 'json' in single ? single.json : single.rows;
}

/** A file's shoes and goals (a JSON export's), once its rows are read. */
function extrasOf(single: Single): () => Extras | undefined {
  if ('json' in single) return single.extras;
  const extras = 'extras' in single ? single.extras : undefined;
  return () => extras;
}

/** One uploaded file: an archive gives one group per member. */
export async function* parseUpload(name: string, file: ByteSource, options: ParseOptions): AsyncGenerator<FileRows> {
  if (!isZip(file.read(0, 4))) {
    const parsed = await parseSingle(name, file, options);
    yield { group: name, rows: withoutFiles(rowsOf(parsed)), extras: extrasOf(parsed) };
    return;
  }
  let archive: ZipArchive;
  const bounds = freshBounds();
  try {
    archive = await openZip(file, bounds);
  } catch (error) {
    if (error instanceof Unreadable) {
      yield { group: name, rows: [{ source: name, skip: error.message }] };
      return;
    }
    throw error;
  }
  yield* archiveGroups(archive, options, bounds, 0);
}

/**
 * A zip member of an archive, read as its members (their names, and so their rows' sources, after
 * the member's and a `/`); one level only: a zip in there is skipped with the reason. Its bytes
 * are counted by its members, in the upload's bounds (entries and expanded bytes) and in what the
 * import may expand: the nested archive stands in the count for what it holds.
 */
async function* nestedGroups(
  archive: ZipArchive,
  member: ZipMember,
  options: ParseOptions,
  bounds: ZipBounds,
  depth: number,
): AsyncGenerator<FileRows> {
  const skipped = (reason: string): FileRows => ({ group: member.name, rows: [{ source: member.name, skip: reason }] });
  if (depth > 0) {
    yield skipped(TOO_DEEP);
    return;
  }
  let inner: ZipArchive;
  try {
    if (member.declaredSize > MAX_FILE_BYTES) throw tooLarge(MAX_FILE_BYTES);
    spend(options, member.declaredSize);
    const bytes = await archive.read(member, MAX_FILE_BYTES);
    options.expansion.left += member.declaredSize;
    bounds.bytes -= member.declaredSize;
    inner = await openZip(memorySource(bytes), bounds);
  } catch (error) {
    if (error instanceof Unreadable) {
      yield skipped(error.message);
      return;
    }
    throw error;
  }
  const prefix = `${member.name}/`;
  const named = { ...inner, members: inner.members.map((m) => ({ ...m, name: prefix + m.name })) };
  yield* archiveGroups(named, options, bounds, depth + 1);
}

/**
 * The groups of an archive's members. Its indexes come first: a Strava export's activities.csv
 * (the shallowest) and this server's JSON exports (the zip export's running-times.json), each with
 * the files its rows name, found beside it; then every member no index row names.
 */
async function* archiveGroups(
  archive: ZipArchive,
  options: ParseOptions,
  bounds: ZipBounds,
  depth: number,
): AsyncGenerator<FileRows> {
  const members = archive.members.filter((m) => !/(^|\/)(__MACOSX\/|\.)/.test(m.name));
  const expand = async (member: ZipMember): Promise<Single> => {
    try {
      if (member.declaredSize > MAX_FILE_BYTES) throw tooLarge(MAX_FILE_BYTES);
      spend(options, member.declaredSize);
      // An export in an archive is expanded as it is parsed, never whole.
      const kind = lowerExtension(member.name);
      if (kind === 'csv' || kind === 'json') {
        const chunks = archive.chunks(member, MAX_FILE_BYTES);
        if (kind === 'json') return parseJson(member.name, chunks);
        const names = new Set<string>();
        return { csv: parseCsv(member.name, chunks, options, names), names };
      }
      return await parseSingle(member.name, memorySource(await archive.read(member, MAX_FILE_BYTES)), options);
    } catch (error) {
      if (error instanceof Unreadable) return skipFile(member.name, error.message);
      throw error;
    }
  };
  const strava = members
    .filter((m) => /(^|\/)activities\.csv$/i.test(m.name))
    .sort((a, b) => a.name.length - b.name.length)[0];
  // In a Strava export its CSV is the one index, as every other file but activities is left out.
  const indexes = strava ? [strava] : members.filter((m) => lowerExtension(m.name) === 'json');
  const byName = new Map(members.map((m) => [m.name, m]));
  const consumed = new Set<string>();
  /** Activity members some index row has read (each is read once). */
  const read = new Set<string>();
  for (const index of indexes) {
    const folder = index.name.slice(0, index.name.lastIndexOf('/') + 1);
    const parsed = await expand(index);
    consumed.add(index.name);
    yield {
      group: index.name,
      rows: withMembers(rowsOf(parsed), folder, byName, expand, read),
      extras: extrasOf(parsed),
    };
    // The index is read by now: the files its rows name are not imported on their own.
    if ('names' in parsed) for (const named of parsed.names) consumed.add(folder + named);
  }
  for (const member of members) {
    if (consumed.has(member.name)) continue;
    // In a Strava export only activity files stand on their own (profile.csv and the like are left out).
    if (strava && !ACTIVITY.test(member.name)) continue;
    if (NESTED_ZIP.test(member.name)) {
      yield* nestedGroups(archive, member, options, bounds, depth);
      continue;
    }
    const parsed = await expand(member);
    yield { group: member.name, rows: withoutFiles(rowsOf(parsed)), extras: extrasOf(parsed) };
  }
}

/**
 * A row that names a file of the archive (a Strava row, or a row of the zip export's JSON) takes
 * the file's track, and its numbers when it has none; a row with numbers of its own is imported
 * without a track when its file is missing or holds no run. Of a file with several runs (a FIT
 * file's sessions) the row takes the run whose numbers match its own (§9), else the first.
 */
async function* withMembers(
  rows: AsyncIterable<ParsedRow> | Iterable<ParsedRow>,
  folder: string,
  byName: Map<string, ZipMember>,
  expand: (member: ZipMember) => Promise<Single>,
  read: Set<string>,
): AsyncGenerator<ParsedRow> {
  for await (const row of rows) {
    if (!('named' in row)) {
      yield row;
      continue;
    }
    const own = ownNumbers(row);
    // Only an activity file gives a track: a row naming an export (its own index, say) never has it read again.
    const member = ACTIVITY.test(row.named) ? byName.get(folder + row.named) : undefined;
    // A file gives its run to the first row that names it: read once, however many rows (or
    // indexes) name it again.
    if (member && read.has(member.name)) {
      yield (
        own ?? { source: row.source, skip: `Its file (${row.named}) was named by an earlier row, which took its run.` }
      );
      continue;
    }
    if (member) read.add(member.name);
    const file = member ? await runOfFile(rowsOf(await expand(member)), own) : undefined;
    if (file && 'run' in file) {
      const { distanceKm, seconds, track, trackStart, original, note } = file.run;
      yield {
        source: row.source,
        run: {
          distanceKm,
          seconds,
          ...row.partial,
          ...(track && trackStart ? { track, trackStart, ...(original ? { original } : {}) } : {}),
          ...(note ? { note } : {}),
        },
      };
    } else if (own) {
      yield own;
    } else if (!member) {
      yield {
        source: row.source,
        skip: ACTIVITY.test(row.named)
          ? `The row has no distance or time and its file (${row.named}) is not in the archive.`
          : `The row has no distance or time and its file (${row.named}) is not an activity file (FIT, TCX or GPX).`,
      };
    } else if (file && 'skip' in file) {
      yield { source: row.source, skip: `${file.skip} (${row.named})` };
    } else {
      yield { source: row.source, skip: `Its file (${row.named}) holds no activity.` };
    }
  }
}

/** Of a named file's rows, the run a row takes (see withMembers), else the file's first skipped row. */
async function runOfFile(
  rows: AsyncIterable<ParsedRow> | Iterable<ParsedRow>,
  own: { run: Candidate } | null,
): Promise<ParsedRow | undefined> {
  const rounded = (run: Candidate) => [Math.round(run.distanceKm * 1000), Math.round(run.seconds)] as const;
  const wanted = own && rounded(own.run);
  let first: ParsedRow | undefined;
  for await (const row of rows) {
    if ('run' in row) {
      if (!wanted || sameRunNumbers(...wanted, ...rounded(row.run))) return row;
      if (!first || !('run' in first)) first = row;
    } else if ('skip' in row) first ??= row;
  }
  return first;
}

/** A row that names a file, as a run of its own numbers, when it has them. */
function ownNumbers(row: Extract<ParsedRow, { named: string }>): { source: string; run: Candidate } | null {
  const { distanceKm, seconds } = row.partial;
  return distanceKm !== undefined && seconds !== undefined
    ? { source: row.source, run: { ...row.partial, distanceKm, seconds } }
    : null;
}

/** Rows that name a file no archive brings: skipped with the reason. */
async function* withoutFiles(rows: AsyncIterable<ParsedRow> | Iterable<ParsedRow>): AsyncGenerator<ParsedRow> {
  for await (const row of rows) {
    yield 'named' in row
      ? (ownNumbers(row) ?? {
          source: row.source,
          skip: `The row has no distance or time and its file (${row.named}) was not uploaded.`,
        })
      : row;
  }
}
