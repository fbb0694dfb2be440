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
import { notARun, skipFile, UNBOUNDED, Unreadable, type ParsedFile, type ParsedRow, type TimeBudget } from './types.js';

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
const SESSION = Profile.MesgNum.SESSION!;

/**
 * The bounds of one FIT file (docs/reliability.md, "Limits"). A watch writes one session a sport
 * (a triathlon five) and a record a second (a week's run is 604,800): more is no run a runner
 * made, and decoding it would hold a million objects.
 */
export const FIT_LIMITS = { sessions: 100, messages: 1_000_000 };

export const isFit = (bytes: Uint8Array) =>
  bytes.length >= 12 && bytes[8] === 0x2e && bytes[9] === 0x46 && bytes[10] === 0x49 && bytes[11] === 0x54;

interface Decoded {
  sessions: RawSession[];
  records: RawRecord[];
  laps: RawLap[];
  events: RawEvent[];
  errors: unknown[];
}

/**
 * The SDK's decoding, with the options the parser uses (also what bench/track-parse.ts measures).
 * Every message passes `budget` and the bounds of FIT_LIMITS as it is decoded: past either, the
 * decoding stops there and the file is refused (Unreadable).
 */
export function decodeFit(bytes: Uint8Array, budget: TimeBudget = UNBOUNDED): Decoded {
  let messageCount = 0;
  let sessionCount = 0;
  const result = new Decoder(Stream.fromByteArray(bytes)).read({
    mesgListener: (mesgNum: number) => {
      budget.check();
      if (++messageCount > FIT_LIMITS.messages) {
        throw new Unreadable(
          `The FIT file holds more than ${FIT_LIMITS.messages.toLocaleString('en-US')} messages: it was not imported.`,
        );
      }
      if (mesgNum === SESSION && ++sessionCount > FIT_LIMITS.sessions) {
        throw new Unreadable(`The FIT file holds more than ${FIT_LIMITS.sessions} sessions: it was not imported.`);
      }
    },
    expandSubFields: false,
    expandComponents: false,
    mergeHeartRates: false,
    includeUnknownData: false,
    applyScaleAndOffset: false,
    convertTypesToStrings: false,
    convertDateTimesToDates: false,
  });
  // The SDK keeps what a listener throws among its errors: a bound is the file's reason.
  const refused = (result.errors ?? []).find((error) => error instanceof Unreadable);
  if (refused) throw refused;
  const messages = result.messages as Record<string, unknown[] | undefined>;
  return {
    sessions: (messages.sessionMesgs ?? []) as RawSession[],
    records: (messages.recordMesgs ?? []) as RawRecord[],
    laps: (messages.lapMesgs ?? []) as RawLap[],
    events: (messages.eventMesgs ?? []) as RawEvent[],
    errors: result.errors ?? [],
  };
}

export function parseFit(source: string, bytes: Uint8Array, budget: TimeBudget = UNBOUNDED): ParsedFile {
  if (!isFit(bytes)) return skipFile(source, 'The file is not a FIT file.');
  let decoded: Decoded;
  try {
    decoded = decodeFit(bytes, budget);
  } catch (error) {
    if (error instanceof Unreadable) return skipFile(source, error.message);
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
  const sorted = sortedForSpans(decoded);
  const byStart = sessions
    .map((_, i) => i)
    .sort((a, b) => epochMs(sessions[a]!.startTime) - epochMs(sessions[b]!.startTime));
  const nextOf = new Map(byStart.map((at, i) => [at, byStart[i + 1]]));
  const rows: ParsedRow[] = sessions.map((session, index): ParsedRow => {
    const where = sessions.length > 1 ? `${source}#${index + 1}` : source;
    if (session.sport !== RUNNING) {
      const sport = session.sport === undefined ? 'unknown' : (SPORT_NAMES[session.sport] ?? String(session.sport));
      return { source: where, skip: notARun(sport) };
    }
    const start = epochMs(session.startTime);
    if (Number.isNaN(start)) return { source: where, skip: 'The session has no start time.' };
    // One session takes the whole file; of several, each takes its own span, which ends before
    // the next session starts: spans never overlap, so all sessions together read each record once.
    const next = sessions[nextOf.get(index) ?? -1];
    const span: [number, number] =
      sessions.length === 1
        ? [-Infinity, Infinity]
        : [start, Math.min(sessionEnd(session, start, next), epochMs(next?.startTime) - 1 || Infinity)];
    return {
      source: where,
      run: {
        start: new Date(start),
        distanceKm: (session.totalDistance ?? 0) / CENTIMETRES / 1000,
        seconds: (session.totalTimerTime ?? 0) / MILLISECONDS,
        ...sessionTrack(sorted, session, pauses, span, budget),
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

/** Records and laps in time order, each with its time (epoch ms): a span's are found by bisection. */
interface Sorted {
  records: RawRecord[];
  recordMs: number[];
  laps: RawLap[];
  lapMs: number[];
}

function sortedForSpans(decoded: Decoded): Sorted {
  const inOrder = <T>(items: T[], time: (item: T) => number): [T[], number[]] => {
    const timed = items.map((item) => [time(item), item] as const).filter(([ms]) => !Number.isNaN(ms));
    // Devices write in time order: sorting is then one pass.
    timed.sort((a, b) => a[0] - b[0]);
    return [timed.map(([, item]) => item), timed.map(([ms]) => ms)];
  };
  const [records, recordMs] = inOrder(decoded.records, (r) => epochMs(r.timestamp));
  const [laps, lapMs] = inOrder(decoded.laps, (l) => epochMs(l.startTime));
  return { records, recordMs, laps, lapMs };
}

/** The first index of `times` (ascending) at or after `from`. */
function firstAtOrAfter(times: number[], from: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (times[mid]! < from) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Timer pauses (in order, apart) that meet a span: found by bisection on their ends. */
function pausesWithin(pauses: [number, number][], from: number, to: number): [number, number][] {
  let low = 0;
  let high = pauses.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (pauses[mid]![1] < from) low = mid + 1;
    else high = mid;
  }
  const within: [number, number][] = [];
  for (let i = low; i < pauses.length && pauses[i]![0] <= to; i++) within.push(pauses[i]!);
  return within;
}

function sessionTrack(
  sorted: Sorted,
  session: RawSession,
  pauses: [number, number][],
  [from, to]: [number, number],
  budget: TimeBudget,
) {
  const builder = new TrackBuilder(budget);
  for (let i = firstAtOrAfter(sorted.recordMs, from); i < sorted.records.length; i++) {
    const ms = sorted.recordMs[i]!;
    if (ms > to) break;
    const record = sorted.records[i]!;
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
  for (let i = firstAtOrAfter(sorted.lapMs, from); i < sorted.laps.length; i++) {
    const start = sorted.lapMs[i]!;
    if (start > to) break;
    budget.check();
    const lap = sorted.laps[i]!;
    builder.lap(start, (lap.totalDistance ?? 0) / CENTIMETRES, (lap.totalTimerTime ?? 0) / MILLISECONDS);
  }
  for (const [stop, restart] of pausesWithin(pauses, from, to))
    builder.pause(Math.max(stop, from), Math.min(restart, to));
  if (session.totalAscent !== undefined && session.totalDescent !== undefined) {
    builder.deviceElevation(session.totalAscent, session.totalDescent);
  }
  return builder.build();
}
