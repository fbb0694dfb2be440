/**
 * From uploaded files to rows: each file is recognised by its content (gzip, zip, FIT) or its
 * name (.tcx, .gpx, .csv, .json), expanded with bounds, and parsed. A file that cannot be read
 * is one skipped row with the reason; nothing here throws for bad input.
 */
import { gunzipBounded, isGzip, MiB } from './inflate.js';
import { parseCsv, type CsvOptions } from './csv.js';
import { isFit, parseFit } from './fit.js';
import { parseGpx } from './gpx.js';
import { parseJson } from './json.js';
import { parseTcx } from './tcx.js';
import { skipFile, Unreadable, type Extras, type ParsedFile, type ParsedRow } from './types.js';
import { expandMember, isZip, zipMembers, type ZipMember } from './zip.js';

/** The most one file may expand to (an activity file, or one CSV or JSON export). */
export const MAX_FILE_BYTES = 128 * MiB;

export type ParseOptions = CsvOptions;

/** The rows of one file: rows of one group are never duplicates of each other. */
export interface FileRows {
  group: string;
  rows: ParsedRow[];
  extras?: Extras;
}

const UNSUPPORTED =
  'This file type is not supported: send .fit, .tcx, .gpx, .csv, .json or .zip files (each possibly gzipped).';
const ACTIVITY = /\.(fit|tcx|gpx)(\.gz)?$/i;

function lowerExtension(name: string): string {
  const match = /\.([a-z0-9]+)$/i.exec(name);
  return match ? match[1]!.toLowerCase() : '';
}

/** One file that is not an archive. */
function parseSingle(name: string, bytes: Uint8Array, options: ParseOptions, gzipped = false): ParsedFile {
  try {
    if (isGzip(bytes)) {
      if (gzipped) return skipFile(name, 'The file is gzipped twice.');
      return parseSingle(name.replace(/\.gz$/i, ''), gunzipBounded(bytes, MAX_FILE_BYTES), options, true);
    }
    if (isZip(bytes)) return skipFile(name, 'Archives inside archives or gzip files are not read.');
    if (isFit(bytes)) return parseFit(name, bytes);
    const head = new TextDecoder().decode(bytes.subarray(0, 512)).trimStart();
    switch (lowerExtension(name)) {
      case 'fit':
        return parseFit(name, bytes);
      case 'tcx':
        return parseTcx(name, bytes);
      case 'gpx':
        return parseGpx(name, bytes);
      case 'csv':
        return parseCsv(name, bytes, options);
      case 'json':
        return parseJson(name, bytes);
    }
    if (head.startsWith('<') && head.includes('<gpx')) return parseGpx(name, bytes);
    if (head.startsWith('<') && head.includes('TrainingCenterDatabase')) return parseTcx(name, bytes);
    if (head.startsWith('{')) return parseJson(name, bytes);
    return skipFile(name, UNSUPPORTED);
  } catch (error) {
    if (error instanceof Unreadable) return skipFile(name, error.message);
    if (error instanceof RangeError) return skipFile(name, 'The file is damaged and could not be read.');
    throw error;
  }
}

/** One uploaded file: an archive gives one group per member. */
export function parseUpload(name: string, bytes: Uint8Array, options: ParseOptions): FileRows[] {
  if (!isZip(bytes)) {
    const parsed = parseSingle(name, bytes, options);
    if (parsed.rows.some((row) => 'named' in row)) return [{ group: name, rows: withoutFiles(parsed.rows) }];
    return [{ group: name, rows: parsed.rows, ...(parsed.extras ? { extras: parsed.extras } : {}) }];
  }
  let members: ZipMember[];
  try {
    members = zipMembers(bytes).filter((m) => !/(^|\/)(__MACOSX\/|\.)/.test(m.name));
  } catch (error) {
    if (error instanceof Unreadable) return [{ group: name, rows: [{ source: name, skip: error.message }] }];
    throw error;
  }
  const expand = (member: ZipMember): ParsedFile => {
    try {
      return parseSingle(member.name, expandMember(bytes, member, MAX_FILE_BYTES), options);
    } catch (error) {
      if (error instanceof Unreadable) return skipFile(member.name, error.message);
      throw error;
    }
  };
  const strava = members
    .filter((m) => /(^|\/)activities\.csv$/i.test(m.name))
    .sort((a, b) => a.name.length - b.name.length)[0];
  const out: FileRows[] = [];
  const consumed = new Set<string>();
  if (strava) {
    const folder = strava.name.slice(0, strava.name.length - 'activities.csv'.length);
    const byName = new Map(members.map((m) => [m.name, m]));
    const parsed = expand(strava);
    consumed.add(strava.name);
    for (const named of parsed.names ?? []) consumed.add(folder + named);
    const rows = parsed.rows.map((row): ParsedRow => {
      if (!('named' in row)) return row;
      const member = byName.get(folder + row.named);
      if (!member)
        return {
          source: row.source,
          skip: `The row has no distance or time and its file (${row.named}) is not in the archive.`,
        };
      const file = expand(member).rows.find((r) => 'run' in r || 'skip' in r);
      if (!file) return { source: row.source, skip: `Its file (${row.named}) holds no activity.` };
      if ('skip' in file) return { source: row.source, skip: `${file.skip} (${row.named})` };
      if (!('run' in file)) return { source: row.source, skip: `Its file (${row.named}) holds no activity.` };
      return {
        source: row.source,
        run: { ...row.partial, distanceKm: file.run.distanceKm, seconds: file.run.seconds },
      };
    });
    out.push({ group: strava.name, rows });
  }
  for (const member of members) {
    if (consumed.has(member.name)) continue;
    // In a Strava export only activity files stand on their own (profile.csv and the like are left out).
    if (strava && !ACTIVITY.test(member.name)) continue;
    const parsed = expand(member);
    out.push({
      group: member.name,
      rows: withoutFiles(parsed.rows),
      ...(parsed.extras ? { extras: parsed.extras } : {}),
    });
  }
  return out;
}

/** Rows that name a file no archive brings: skipped with the reason. */
function withoutFiles(rows: ParsedRow[]): ParsedRow[] {
  return rows.map((row) =>
    'named' in row
      ? { source: row.source, skip: `The row has no distance or time and its file (${row.named}) was not uploaded.` }
      : row,
  );
}
