/**
 * A track made ready to store (CONTRACT.md §13, §14, §17), once, where it is parsed (an import's
 * parse thread): its samples in the codec's bytes, the run page's answer computed whole but for
 * the heart-rate section (which depends on the runner's maximum heart rate when the page is
 * asked for) and stored as page.ts packs it, what that section is computed from, the map's route, the entry's
 * summary, and the best efforts for records. A run page then costs a read and a decompression.
 *
 * `packTrack` / `unpackTrack` carry one through an import's spool file as bytes: a header of
 * JSON and the binary parts after it.
 */
import { analyseTrack, type EntryTrackFields } from '../../../core/tracks/analyse.js';
import type { HeartRateSummary } from '../../../core/tracks/heart-rate.js';
import type { Bounds } from '../../../core/tracks/route.js';
import { runTrackOf } from '../../../core/tracks/schemas.js';
import type { Track } from '../../../core/tracks/types.js';
import { encodeTrack } from './codec.js';
import { packPage } from './page.js';

/** A best effort as records count it (§15): its key, elapsed milliseconds, and where it starts (m). */
export interface EffortOfTrack {
  key: string;
  ms: number;
  start: number;
}

export interface PreparedTrack {
  samples: number;
  /** The instant of the first sample (ISO). */
  startedAt: string;
  entry: EntryTrackFields;
  hrSummary: HeartRateSummary | null;
  /** §16's route for the map of every run, and its bounds. */
  mapRoute: string | null;
  bounds: Bounds | null;
  /** Best efforts at the standard distances; empty without distances. */
  efforts: EffortOfTrack[];
  /** Whether the track has distances (§15: then it counts for records only through its efforts). */
  hasDistances: boolean;
  /** The codec's bytes of the samples, laps and pauses. */
  data: Uint8Array;
  /** The run page's answer but `entry_id` and `heart_rate`, as page.ts stores it. */
  page: Uint8Array;
}

/** The original file of a track: its own base name, and its bytes (un-gzipped). */
export interface OriginalFile {
  name: string;
  bytes: Uint8Array;
}

/** §13: an original larger than this keeps its track, not its file. */
export const MAX_ORIGINAL_BYTES = 32 * 1024 * 1024;

export function prepareTrack(track: Track, trackStart: Date): PreparedTrack {
  const analysis = analyseTrack(track);
  const { entry_id: _entryId, heart_rate: _heartRate, ...page } = runTrackOf(0, analysis, null);
  return {
    samples: analysis.samples,
    startedAt: trackStart.toISOString(),
    entry: analysis.entry,
    hrSummary: analysis.heart_rate_summary,
    mapRoute: analysis.map_route,
    bounds: analysis.bounds,
    efforts: analysis.best_efforts.map((e) => ({ key: e.key, ms: Math.round(e.seconds * 1000), start: e.start })),
    hasDistances: analysis.has.distance,
    data: encodeTrack(track),
    page: packPage(page),
  };
}

type Header = Omit<PreparedTrack, 'data' | 'page'> & {
  dataBytes: number;
  pageBytes: number;
  original: { name: string; bytes: number } | null;
};

/** One prepared track and its original (if kept) as bytes: a 4-byte length, the JSON header, then the parts. */
export function packTrack(prepared: PreparedTrack, original: OriginalFile | null): Buffer {
  const { data, page, ...rest } = prepared;
  const header: Header = {
    ...rest,
    dataBytes: data.length,
    pageBytes: page.length,
    original: original && { name: original.name, bytes: original.bytes.length },
  };
  const head = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length);
  return Buffer.concat([length, head, data, page, ...(original ? [original.bytes] : [])]);
}

/** What a run's preview needs of a packed track, read from its first bytes alone (`read(at, length)`). */
export function packedSummary(read: (at: number, length: number) => Buffer): EntryTrackFields {
  const headLength = read(0, 4).readUInt32LE(0);
  return (JSON.parse(read(4, headLength).toString('utf8')) as Header).entry;
}

export function unpackTrack(bytes: Buffer): { prepared: PreparedTrack; original: OriginalFile | null } {
  const headLength = bytes.readUInt32LE(0);
  const { dataBytes, pageBytes, original, ...rest } = JSON.parse(
    bytes.subarray(4, 4 + headLength).toString('utf8'),
  ) as Header;
  let at = 4 + headLength;
  const take = (n: number) => bytes.subarray(at, (at += n));
  const data = take(dataBytes);
  const page = take(pageBytes);
  return {
    prepared: { ...rest, data, page },
    original: original && { name: original.name, bytes: take(original.bytes) },
  };
}
