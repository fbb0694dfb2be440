/**
 * FIT activity files as watches write them, made with Garmin's own encoder (`Encoder`), for the
 * import tests and the bench.
 */
import { Encoder, Profile } from '@garmin/fitsdk';

/** The message numbers used here (the profile types them as a plain record). */
const MESG = {
  FILE_ID: Profile.MesgNum.FILE_ID!,
  EVENT: Profile.MesgNum.EVENT!,
  RECORD: Profile.MesgNum.RECORD!,
  LAP: Profile.MesgNum.LAP!,
  SESSION: Profile.MesgNum.SESSION!,
  ACTIVITY: Profile.MesgNum.ACTIVITY!,
};

/** Writes one message (the SDK's typings know each message's fields only by number). */
const put = (encoder: Encoder, num: number, mesg: Record<string, unknown>) => encoder.onMesg(num, mesg as never);

/** Degrees to the semicircles FIT stores positions in. */
export const semicircles = (degrees: number) => Math.round((degrees * 2 ** 31) / 180);

/** A FIT `record`: what a device measured at one instant. Absent fields are not written. */
export interface FitRecord {
  /** Seconds after the session's start. */
  t: number;
  lat?: number;
  lon?: number;
  /** Metres. */
  distance?: number;
  enhancedAltitude?: number;
  /** The older 16-bit altitude field, which devices wrote before enhanced_altitude. */
  altitude?: number;
  heartRate?: number;
  /** Per leg, as devices record a run's cadence, plus its fraction. */
  cadence?: number;
  fractionalCadence?: number;
  /** Metres per second. */
  speed?: number;
}

export interface FitLap {
  /** Seconds after the session's start. */
  start: number;
  elapsed: number;
  timer: number;
  metres: number;
}

export interface FitSession {
  start: Date;
  sport?: string;
  metres: number;
  timerSeconds: number;
  elapsedSeconds: number;
  records: FitRecord[];
  /** One lap over the whole session when absent. */
  laps?: FitLap[];
  /** Timer stops and the starts that end them, seconds after the start; `stopAll` unless told. */
  pauses?: { from: number; to: number; stop?: 'stop' | 'stopAll' | 'stopDisable' | 'stopDisableAll' }[];
  totalAscent?: number;
  totalDescent?: number;
}

/** A FIT activity file as a watch writes it: file id, then per session its events, records, laps and session; the activity. */
export function fitFile(sessions: FitSession[]): Uint8Array {
  const encoder = new Encoder();
  const first = sessions[0]!.start;
  put(encoder, MESG.FILE_ID, {
    manufacturer: 'garmin',
    product: 3113,
    serialNumber: 3_912_345_678,
    timeCreated: first,
    type: 'activity',
  });
  let lapIndex = 0;
  let end = first;
  let timer = 0;
  sessions.forEach((session, sessionIndex) => {
    const at = (seconds: number) => new Date(session.start.getTime() + seconds * 1000);
    const sport = session.sport ?? 'running';
    end = at(session.elapsedSeconds);
    timer += session.timerSeconds;
    put(encoder, MESG.EVENT, { timestamp: session.start, event: 'timer', eventType: 'start' });
    const pauses = [...(session.pauses ?? [])];
    for (const record of session.records) {
      while (pauses.length > 0 && pauses[0]!.from <= record.t) {
        const pause = pauses.shift()!;
        put(encoder, MESG.EVENT, { timestamp: at(pause.from), event: 'timer', eventType: pause.stop ?? 'stopAll' });
        put(encoder, MESG.EVENT, { timestamp: at(pause.to), event: 'timer', eventType: 'start' });
      }
      const { t, lat, lon, speed, ...fields } = record;
      put(encoder, MESG.RECORD, {
        timestamp: at(t),
        ...(lat === undefined ? {} : { positionLat: semicircles(lat) }),
        ...(lon === undefined ? {} : { positionLong: semicircles(lon) }),
        ...(speed === undefined ? {} : { enhancedSpeed: speed }),
        ...fields,
      });
    }
    put(encoder, MESG.EVENT, { timestamp: end, event: 'timer', eventType: 'stopAll' });
    const kind = { sport, subSport: 'generic' };
    const laps = session.laps ?? [
      { start: 0, elapsed: session.elapsedSeconds, timer: session.timerSeconds, metres: session.metres },
    ];
    const firstLapIndex = lapIndex;
    for (const lap of laps) {
      put(encoder, MESG.LAP, {
        timestamp: at(lap.start + lap.elapsed),
        startTime: at(lap.start),
        totalElapsedTime: lap.elapsed,
        totalTimerTime: lap.timer,
        totalDistance: lap.metres,
        ...kind,
        messageIndex: lapIndex++,
        event: 'lap',
        eventType: 'stop',
      });
    }
    put(encoder, MESG.SESSION, {
      timestamp: end,
      startTime: session.start,
      totalElapsedTime: session.elapsedSeconds,
      totalTimerTime: session.timerSeconds,
      totalDistance: session.metres,
      ...(session.totalAscent === undefined ? {} : { totalAscent: session.totalAscent }),
      ...(session.totalDescent === undefined ? {} : { totalDescent: session.totalDescent }),
      ...kind,
      messageIndex: sessionIndex,
      firstLapIndex,
      numLaps: laps.length,
    });
  });
  put(encoder, MESG.ACTIVITY, {
    timestamp: end,
    totalTimerTime: timer,
    numSessions: sessions.length,
    type: 'manual',
    event: 'activity',
    eventType: 'stop',
  });
  return encoder.close();
}

export interface FitRun {
  start: Date;
  metres: number;
  timerSeconds: number;
  sport?: string;
}

/** A FIT activity file: file id, a few records, one lap, one session and the activity. */
export function fitActivity(run: FitRun): Uint8Array {
  return fitFile([
    {
      ...run,
      elapsedSeconds: run.timerSeconds + 60,
      records: Array.from({ length: 5 }, (_, i) => ({
        t: (i * run.timerSeconds) / 4,
        distance: (i * run.metres) / 4,
        heartRate: 140 + i,
      })),
    },
  ]);
}
