/** What every parser of an imported file produces: runs to validate, or rows skipped with a reason. */
import type { Track } from '../../../../core/tracks/types.js';

/** A run as a file describes it, before rounding, validation and the duplicate test. */
export interface Candidate {
  /** Kilometres, unrounded. */
  distanceKm: number;
  /** Seconds, unrounded. */
  seconds: number;
  /** From this server's own export (CSV or JSON), which §18's rules for other sources leave alone. */
  ownExport?: boolean;
  /** The calendar date when the source gives one (own exports, local times)... */
  date?: string;
  /** ...else the start instant, placed in the caller's time zone. */
  start?: Date;
  /** Text, as the source has it (a JSON export may hold anything here: validation says what is wrong). */
  title?: unknown;
  notes?: unknown;
  /** Passed on as the source has them: validation says what is wrong. */
  kind?: unknown;
  effort?: unknown;
  /** The shoe's name, when the source names one. */
  shoe?: string | null;
  /** What the device recorded (FIT, TCX, GPX; CONTRACT.md §13). */
  track?: Track;
  /** The instant of the track's first sample. */
  trackStart?: Date;
  /** The activity file the track came from (§13 "the original"): its own base name and bytes, un-gzipped. */
  original?: { name: string; bytes: Uint8Array };
  /** Said in the row's `reason` though the run is kept (a track thinned to its most samples). */
  note?: string;
}

/** A row of the import's answer, as a parser sees it. */
export type ParsedRow =
  | { source: string; run: Candidate }
  | { source: string; skip: string; columns?: string[] }
  /**
   * A row that names a file of its archive (a Strava row): it takes its track from the file, and
   * its numbers too when it has none (resolved by the archive).
   */
  | { source: string; named: string; partial: Omit<Candidate, 'distanceKm' | 'seconds'> & Partial<Numbers> };

type Numbers = Pick<Candidate, 'distanceKm' | 'seconds'>;

/** Shoes and goals of this server's JSON export, brought back as they are. */
export interface Extras {
  shoes: Record<string, unknown>[];
  goals: Record<string, unknown>[];
}

/** One file's rows. `group` says which rows may not be duplicates of each other (one CSV or JSON file). */
export interface ParsedFile {
  rows: ParsedRow[];
  extras?: Extras;
}

/** The bytes of an uploaded file, read where they are needed (a file on disk, or bytes already in memory). */
export interface ByteSource {
  size: number;
  /** The open file the bytes lie in, when they lie in one (an archive is read there at random places). */
  fd?: number;
  /** Up to `length` bytes from `at` (fewer at the end). */
  read(at: number, length: number): Uint8Array;
}

export const memorySource = (bytes: Uint8Array): ByteSource => ({
  size: bytes.length,
  read: (at, length) => bytes.subarray(at, at + length),
});

/** An unreadable file: skipped with this sentence (under `source`, the file's name, when it is given). */
export class Unreadable extends Error {
  constructor(
    message: string,
    readonly source?: string,
  ) {
    super(message);
  }
}

/** A file that took longer than its time to read: skipped whole with this reason. */
export const tooSlow = (seconds: number) =>
  new Unreadable(`Reading this file took longer than ${seconds} seconds: it was not imported.`);

/**
 * The time one file's parsing may take, checked inside the parsers' loops (a decoder's or an XML
 * parser's callbacks, a track's samples) as well as between rows: a file that is slow to read
 * for its size is given up part-way with `tooSlow`, never read to its end.
 */
export class Budget {
  private calls = 0;
  private readonly until: number;
  constructor(readonly seconds: number) {
    this.until = performance.now() + seconds * 1000;
  }
  /** Cheap enough for every sample: the clock is read once in 1,024 calls. */
  check(): void {
    if ((++this.calls & 1023) === 0 && performance.now() > this.until) throw tooSlow(this.seconds);
  }
}

/** No bound on time (a parser called outside an import, as the tests and benches do). */
export const UNBOUNDED = { check: () => undefined } satisfies Pick<Budget, 'check'>;
export type TimeBudget = Pick<Budget, 'check'>;

export const skipFile = (source: string, reason: string): ParsedFile => ({ rows: [{ source, skip: reason }] });

/** Sports of other kinds named by GPX `<type>`, Strava or Garmin: such a file is not a run. */
const OTHER_SPORTS =
  /\b(ride|cycl\w*|bik\w*|e-?bike|hik\w*|walk\w*|swim\w*|ski\w*|snowboard\w*|rowing|row|kayak\w*|canoe\w*|yoga|workout|weight\w*|elliptical|stair\w*|golf|tennis|surf\w*|skat\w*|climb\w*|paddl\w*|sail\w*|strength\w*|crossfit|soccer|football|basketball|wheelchair\w*)\b/i;
export function isOtherSport(type: string): boolean {
  return OTHER_SPORTS.test(type) && !/\brun/i.test(type);
}

/** "Not a run (Ride)." */
export const notARun = (type: string) => `Not a run (${type.trim() || 'unknown sport'}).`;

/** A number as exports write it: "10.02", "1,234.5", "10,02", blank or "--" (null). */
export function looseNumber(text: string | undefined | null): number | null {
  if (text === undefined || text === null) return null;
  let t = text.trim();
  if (t === '' || t === '--') return null;
  // Most numbers of an export have no comma to read.
  if (t.includes(',')) {
    if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) t = t.replace(/,/g, '');
    else if (/^-?\d+,\d+$/.test(t)) t = t.replace(',', '.');
  }
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t)) return null;
  const value = Number(t);
  return Number.isFinite(value) ? value : null;
}

/** A duration as exports write it: "1:02:03", "02:03", "00:50:12.3" or seconds ("1800", "1800.0"). */
export function looseDuration(text: string | undefined | null): number | null {
  if (text === undefined || text === null) return null;
  const t = text.trim();
  const clock = /^(?:(\d+):)?([0-5]?\d):([0-5]\d(?:\.\d+)?)$/.exec(t);
  if (clock) return Number(clock[1] ?? 0) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
  return looseNumber(t);
}

/** A text field of a source: trimmed, blank is absent. */
export function text(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const t = String(value).trim();
  return t === '' ? undefined : t;
}
