/**
 * FIT activities (Garmin and others): each session's sport, start, total distance and timer
 * time, and its track (CONTRACT.md §13): the records, laps and timer pauses within its span.
 *
 * The SDK decodes with every conversion off: its raw integers are what the track keeps anyway
 * (centimetres, semicircles, whole seconds), and scaling, naming enums, making a Date for each
 * of thousands of records and expanding components cost about a quarter of the decoding time
 * (bench/track-parse.ts). Without components, the 16-bit `altitude` is read here (it would
 * expand into `enhanced_altitude`), and the `compressed_speed_distance` of some early devices
 * gives no distance: such a track takes its distance from its positions.
 */
import { Decoder, Profile, Stream, Utils } from '@garmin/fitsdk';
import { TrackBuilder } from './track.js';
import { notARun, skipFile, type ParsedFile, type ParsedRow } from './types.js';

/** Raw field values, as the decoder gives them without scale, offset or names (absent when invalid). */
interface RawSession {
  sport?: number;
  startTime?: number;
  totalDistance?: number;
  totalTimerTime?: number;
  totalElapsedTime?: number;
  totalAscent?: number;
  totalDescent?: number;
}
interface RawRecord {
  timestamp?: number;
  positionLat?: number;
  positionLong?: number;
  distance?: number;
  enhancedAltitude?: number;
  altitude?: number;
  heartRate?: number;
  cadence?: number;
  fractionalCadence?: number;
}
interface RawLap {
  startTime?: number;
  totalDistance?: number;
  totalTimerTime?: number;
}
interface RawEvent {
  timestamp?: number;
  event?: number;
  eventType?: number;
}

/** The profile's scales: distance in cm, times in ms, altitude in fifths of a metre above -500 m. */
const CENTIMETRES = 100;
const MILLISECONDS = 1000;
const altitudeMetres = (raw: number) => raw / 5 - 500;
const FRACTIONAL_CADENCE_SCALE = 128;
const DEGREES_PER_SEMICIRCLE = 180 / 2 ** 31;

/** FIT date_time (seconds since 1989-12-31) to epoch milliseconds. */
const epochMs = (fitSeconds: number | undefined) =>
  fitSeconds === undefined ? NaN : fitSeconds * 1000 + Utils.FIT_EPOCH_MS;

const TIMER_EVENT = 0;
const START = 0;
/** stop, stop_all, stop_disable, stop_disable_all */
const STOPS = new Set([1, 4, 8, 9]);
const SPORT_NAMES = Profile.types.sport ?? {};
const RUNNING = 1;

export const isFit = (bytes: Uint8Array) =>
  bytes.length >= 12 && bytes[8] === 0x2e && bytes[9] === 0x46 && bytes[10] === 0x49 && bytes[11] === 0x54;

interface Decoded {
  sessions: RawSession[];
  records: RawRecord[];
  laps: RawLap[];
  events: RawEvent[];
  errors: unknown[];
}

/** The SDK's decoding, with the options the parser uses (also what bench/track-parse.ts measures). */
export function decodeFit(bytes: Uint8Array): Decoded {
  const result = new Decoder(Stream.fromByteArray(bytes)).read({
    expandSubFields: false,
    expandComponents: false,
    mergeHeartRates: false,
    includeUnknownData: false,
    applyScaleAndOffset: false,
    convertTypesToStrings: false,
    convertDateTimesToDates: false,
  });
  const messages = result.messages as Record<string, unknown[] | undefined>;
  return {
    sessions: (messages.sessionMesgs ?? []) as RawSession[],
    records: (messages.recordMesgs ?? []) as RawRecord[],
    laps: (messages.lapMesgs ?? []) as RawLap[],
    events: (messages.eventMesgs ?? []) as RawEvent[],
    errors: result.errors ?? [],
  };
}

export function parseFit(source: string, bytes: Uint8Array): ParsedFile {
  if (!isFit(bytes)) return skipFile(source, 'The file is not a FIT file.');
  let decoded: Decoded;
  try {
    decoded = decodeFit(bytes);
  } catch {
    return skipFile(source, 'The FIT file is damaged and could not be read.');
  }
  const { sessions, errors } = decoded;
  if (sessions.length === 0) {
    return skipFile(
      source,
      errors.length > 0
        ? 'The FIT file is damaged or truncated (no complete session).'
        : 'The FIT file holds no activity session.',
    );
  }
  const pauses = timerPauses(decoded.events);
  const rows: ParsedRow[] = sessions.map((session, index): ParsedRow => {
    const where = sessions.length > 1 ? `${source}#${index + 1}` : source;
    if (session.sport !== RUNNING) {
      const sport = session.sport === undefined ? 'unknown' : (SPORT_NAMES[session.sport] ?? String(session.sport));
      return { source: where, skip: notARun(sport) };
    }
    const start = epochMs(session.startTime);
    if (Number.isNaN(start)) return { source: where, skip: 'The session has no start time.' };
    // One session takes the whole file; of several, each takes its own span.
    const span: [number, number] =
      sessions.length === 1 ? [-Infinity, Infinity] : [start, sessionEnd(session, start, sessions[index + 1])];
    return {
      source: where,
      run: {
        start: new Date(start),
        distanceKm: (session.totalDistance ?? 0) / CENTIMETRES / 1000,
        seconds: (session.totalTimerTime ?? 0) / MILLISECONDS,
        ...sessionTrack(decoded, session, pauses, span),
      },
    };
  });
  return { rows };
}

/** A session's span ends after its elapsed time (else its timer time, else where the next session starts). */
function sessionEnd(session: RawSession, start: number, next: RawSession | undefined): number {
  const elapsedMs = session.totalElapsedTime ?? session.totalTimerTime;
  if (elapsedMs !== undefined) return start + elapsedMs;
  const nextStart = epochMs(next?.startTime);
  return Number.isNaN(nextStart) ? Infinity : nextStart - 1;
}

/** Timer stops up to the next start, in epoch milliseconds. */
function timerPauses(events: RawEvent[]): [number, number][] {
  const timers = events
    .filter((e) => e.event === TIMER_EVENT && e.timestamp !== undefined && e.eventType !== undefined)
    .sort((a, b) => a.timestamp! - b.timestamp!);
  const pauses: [number, number][] = [];
  let stoppedAt: number | null = null;
  for (const event of timers) {
    if (STOPS.has(event.eventType!)) stoppedAt ??= epochMs(event.timestamp);
    else if (event.eventType === START && stoppedAt !== null) {
      pauses.push([stoppedAt, epochMs(event.timestamp)]);
      stoppedAt = null;
    }
  }
  return pauses;
}

function sessionTrack(decoded: Decoded, session: RawSession, pauses: [number, number][], [from, to]: [number, number]) {
  const builder = new TrackBuilder();
  for (const record of decoded.records) {
    const ms = epochMs(record.timestamp);
    if (ms < from || ms > to) continue;
    const altitude = record.enhancedAltitude ?? record.altitude;
    builder.add(
      ms,
      record.positionLat === undefined ? NaN : record.positionLat * DEGREES_PER_SEMICIRCLE,
      record.positionLong === undefined ? NaN : record.positionLong * DEGREES_PER_SEMICIRCLE,
      record.distance === undefined ? NaN : record.distance / CENTIMETRES,
      altitude === undefined ? NaN : altitudeMetres(altitude),
      record.heartRate ?? NaN,
      record.cadence === undefined
        ? NaN
        : 2 * (record.cadence + (record.fractionalCadence ?? 0) / FRACTIONAL_CADENCE_SCALE),
    );
  }
  for (const lap of decoded.laps) {
    const start = epochMs(lap.startTime);
    if (start < from || start > to) continue;
    builder.lap(start, (lap.totalDistance ?? 0) / CENTIMETRES, (lap.totalTimerTime ?? 0) / MILLISECONDS);
  }
  for (const [stop, restart] of pauses) builder.pause(Math.max(stop, from), Math.min(restart, to));
  if (session.totalAscent !== undefined && session.totalDescent !== undefined) {
    builder.deviceElevation(session.totalAscent, session.totalDescent);
  }
  return builder.build();
}
