/**
 * Everything the server keeps of a track besides its samples (CONTRACT.md §13-§16), computed once
 * when the track is stored: the run page's route, bounds, series, splits, laps, best efforts and
 * elevation; the map's smaller route; the heart-rate summary from which the zones are drawn for
 * whatever `max_used` the runner has when asking (`heartRateSection`); the entry's new fields.
 * The result is plain JSON.
 */
import { bestEffortsOf, type BestEffort } from './best-efforts.js';
import { elevationOf, type Elevation } from './elevation.js';
import { averageHeartRate, heartRateSummary, type HeartRateSummary } from './heart-rate.js';
import { boundsOf, MAP_ROUTE_POINTS, positionsOf, ROUTE_POINTS, simplifiedRoutes, type Bounds } from './route.js';
import { seriesOf, type TrackSeries } from './series.js';
import { splitsOf, type Splits } from './splits.js';
import { hasCadence, hasElevation, hasHeartRate, prepareTrack, weightedSum, wholeMean } from './timing.js';
import type { Track } from './types.js';

export interface TrackHas {
  distance: boolean;
  position: boolean;
  elevation: boolean;
  heart_rate: boolean;
  cadence: boolean;
}

/** A lap as the API shows it. */
export interface TrackLapRow {
  /** From 1. */
  index: number;
  /** Seconds from the first sample. */
  start: number;
  /** Metres. */
  distance: number;
  /** Timer seconds. */
  time: number;
}

/** The read-only fields an entry gains from its track (§13); null where the track cannot tell. */
export interface EntryTrackFields {
  elevation_gain: number | null;
  elevation_loss: number | null;
  avg_heart_rate: number | null;
  max_heart_rate: number | null;
  avg_cadence: number | null;
}

export interface TrackAnalysis {
  samples: number;
  has: TrackHas;
  bounds: Bounds | null;
  /** §14: at most 2,000 points. */
  route: string | null;
  /** §16: at most 200 points. */
  map_route: string | null;
  series: TrackSeries | null;
  pauses: [number, number][];
  laps: TrackLapRow[];
  splits: Splits;
  best_efforts: BestEffort[];
  elevation: Elevation | null;
  heart_rate_summary: HeartRateSummary | null;
  entry: EntryTrackFields;
}

/** The maths below rely on these; a parser that breaks them is a bug worth a clear message. */
export function checkTrack(track: Track): void {
  const n = track.t.length;
  for (const column of ['lat', 'lon', 'd', 'ele', 'hr', 'cad'] as const) {
    const values = track[column];
    if (values && values.length !== n) {
      throw new RangeError(`The track's ${column} has ${values.length} samples where t has ${n}.`);
    }
  }
  if ((track.lat === null) !== (track.lon === null))
    throw new RangeError('The track has lat without lon or lon without lat.');
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(track.t[i]) || (i > 0 && !(track.t[i]! > track.t[i - 1]!))) {
      throw new RangeError(`The track's times must increase: sample ${i} does not.`);
    }
    if (track.d && (!Number.isFinite(track.d[i]) || (i > 0 && track.d[i]! < track.d[i - 1]!))) {
      throw new RangeError(`The track's distances must never decrease: sample ${i} does.`);
    }
  }
}

export function analyseTrack(track: Track): TrackAnalysis {
  checkTrack(track);
  const prepared = prepareTrack(track);
  const positions = positionsOf(track);
  const [route, mapRoute] = simplifiedRoutes(track, [ROUTE_POINTS, MAP_ROUTE_POINTS]) ?? [null, null];
  const elevation = elevationOf(track);
  const summary = heartRateSummary(prepared);
  const cadence = track.cad ? wholeMean(weightedSum(track.cad, prepared.weightsMs, hasCadence)) : null;
  return {
    samples: track.t.length,
    has: {
      distance: track.d !== null && track.t.length > 0,
      position: positions !== null,
      elevation: track.ele?.some(hasElevation) ?? false,
      heart_rate: track.hr?.some(hasHeartRate) ?? false,
      cadence: track.cad?.some(Number.isFinite) ?? false,
    },
    bounds: positions && boundsOf(positions),
    route: route ?? null,
    map_route: mapRoute ?? null,
    series: seriesOf(prepared),
    pauses: track.pauses.map(([from, to]) => [from, to]),
    laps: track.laps.map((lap, k) => ({ index: k + 1, start: lap.start, distance: lap.distance, time: lap.time })),
    splits: splitsOf(prepared),
    best_efforts: bestEffortsOf(prepared),
    elevation,
    heart_rate_summary: summary,
    entry: {
      elevation_gain: elevation?.gain ?? null,
      elevation_loss: elevation?.loss ?? null,
      avg_heart_rate: summary && averageHeartRate(summary),
      max_heart_rate: summary && Math.round(summary.max),
      avg_cadence: cadence,
    },
  };
}
