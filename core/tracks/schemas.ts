/**
 * The API's answers about tracks (CONTRACT.md §14 `GET /entry/{id}/track`, §16 `GET /insights/routes`
 * and the `map` of `GET /app-config`), as zod schemas: the server declares them as its response
 * schemas and the web app checks every answer against them. Field by field the contract's tables.
 */
import { z } from 'zod';
import type { TrackAnalysis } from './analyse.js';
import type { HeartRateSection } from './heart-rate.js';

const wholeNumber = z.number().int();

/** `[[south, west], [north, east]]` in degrees. */
export const BoundsSchema = z
  .tuple([z.tuple([z.number(), z.number()]), z.tuple([z.number(), z.number()])])
  .describe('[[south, west], [north, east]] in degrees');

export const TrackHasSchema = z.object({
  distance: z.boolean(),
  position: z.boolean(),
  elevation: z.boolean(),
  heart_rate: z.boolean(),
  cadence: z.boolean(),
});

export const TrackSeriesSchema = z.object({
  distance: z.array(z.number()).describe('Metres, evenly spaced from the first sample to the last'),
  time: z.array(z.number()).describe('Elapsed seconds at each distance'),
  elevation: z.array(z.number()).nullable(),
  heart_rate: z.array(z.number()).nullable(),
  cadence: z.array(z.number()).nullable(),
});
export type TrackSeries = z.infer<typeof TrackSeriesSchema>;

export const TrackLapSchema = z.object({
  index: wholeNumber.describe('From 1'),
  start: z.number().describe('Seconds from the first sample'),
  distance: z.number().describe('Metres'),
  time: z.number().describe('Timer seconds'),
});
export type TrackLap = z.infer<typeof TrackLapSchema>;

export const TrackSplitSchema = z.object({
  index: wholeNumber.describe('From 1'),
  distance: z.number().describe('Metres, 1 decimal (the last split has its real length)'),
  time: z.number().describe('Timer seconds, 1 decimal'),
  elevation_change: z.number().nullable().describe('Metres from start to end, 1 decimal; null without elevation'),
  heart_rate: wholeNumber.nullable().describe('Weighted mean, whole bpm; null without heart rate'),
});
export type TrackSplit = z.infer<typeof TrackSplitSchema>;

export const BestEffortSchema = z.object({
  key: z.string().describe('A standard distance of §10'),
  distance: z.number().describe('km'),
  time: z.string().describe('Elapsed HH:MM:SS'),
  pace: z.number().describe('min/km, 2 decimals'),
  start: wholeNumber.describe('Metres from the first sample to the start of the stretch'),
});
export type BestEffortRow = z.infer<typeof BestEffortSchema>;

export const TrackElevationSchema = z.object({
  gain: wholeNumber,
  loss: wholeNumber,
  source: z.enum(['device', 'track']),
});
export type TrackElevation = z.infer<typeof TrackElevationSchema>;

export const HeartRateZoneSchema = z.object({
  zone: wholeNumber,
  from_bpm: wholeNumber,
  to_bpm: wholeNumber.nullable().describe("The next zone's from_bpm - 1; null for zone 5"),
  seconds: z.number(),
});
export type HeartRateZoneRow = z.infer<typeof HeartRateZoneSchema>;

export const TrackHeartRateSchema = z.object({
  avg: wholeNumber.nullable(),
  max: wholeNumber,
  max_used: wholeNumber,
  max_source: z.enum(['profile', 'observed']),
  zones: z.array(HeartRateZoneSchema),
  below_zones: z.number().describe('Seconds below zone 1'),
  trimp: z.number().describe('Edwards: minutes in zone x zone number, 1 decimal'),
});
export type TrackHeartRate = z.infer<typeof TrackHeartRateSchema>;

export const RunTrackSchema = z.object({
  entry_id: wholeNumber,
  samples: wholeNumber,
  has: TrackHasSchema,
  bounds: BoundsSchema.nullable(),
  route: z.string().nullable().describe('Google encoded polyline (precision 5), at most 2,000 points'),
  series: TrackSeriesSchema.nullable(),
  pauses: z.array(z.tuple([z.number(), z.number()])).describe('[from, to] seconds'),
  laps: z.array(TrackLapSchema),
  splits: z.object({ km: z.array(TrackSplitSchema), mi: z.array(TrackSplitSchema) }),
  best_efforts: z.array(BestEffortSchema),
  elevation: TrackElevationSchema.nullable(),
  heart_rate: TrackHeartRateSchema.nullable(),
});
export type RunTrack = z.infer<typeof RunTrackSchema>;
/** §22: the run's route and its segment efforts, ranked, beside the track (whose `route` is its line). */
export const RunRouteSchema = z.object({
  id: wholeNumber,
  name: z.string(),
  rank: wholeNumber.nullable(),
  best: z.object({ entry_id: wholeNumber, date: z.string(), time: z.string() }).nullable(),
});
export const RunSegmentEffortSchema = z.object({
  id: wholeNumber,
  name: z.string(),
  time: z.string(),
  rank: wholeNumber,
});
/** The run's route and segment efforts as the web app reads them beside the track: none from a server without routes. */
export const TrackPlacesSchema = z.object({
  route: RunRouteSchema.nullable().default(null),
  segments: z.array(RunSegmentEffortSchema).default([]),
});
export type TrackPlaces = z.infer<typeof TrackPlacesSchema>;
export const RunTrackEnvelopeSchema = z.object({
  track: RunTrackSchema,
  // Always sent by the server; optional so that a client reading an older server still reads the track.
  route: RunRouteSchema.nullable().optional(),
  segments: z.array(RunSegmentEffortSchema).optional(),
});

export const RouteRunSchema = z.object({
  entry_id: wholeNumber,
  date: z.string().describe('YYYY-MM-DD'),
  distance: z.number().describe('km'),
  polyline: z.string().describe('Google encoded polyline (precision 5), at most 200 points'),
});
export type RouteRun = z.infer<typeof RouteRunSchema>;

export const RoutesMapSchema = z.object({
  bounds: BoundsSchema.nullable(),
  runs: z.array(RouteRunSchema).describe('Oldest first'),
});
export type RoutesMap = z.infer<typeof RoutesMapSchema>;
export const RoutesEnvelopeSchema = z.object({ routes: RoutesMapSchema });

/** The `map` of `GET /app-config`: null when the server's MAP_TILE_URL is `off`. */
export const MapConfigSchema = z.object({
  tile_url: z.string().describe('A Leaflet tile URL template ({z}/{x}/{y})'),
  attribution: z.string(),
});
export type MapConfig = z.infer<typeof MapConfigSchema>;

/**
 * The answer of `GET /entry/{id}/track` from a stored analysis and the heart-rate section drawn
 * for the runner's current `max_used` (null without heart rate).
 */
export function runTrackOf(entryId: number, analysis: TrackAnalysis, heartRate: HeartRateSection | null): RunTrack {
  return {
    entry_id: entryId,
    samples: analysis.samples,
    has: analysis.has,
    bounds: analysis.bounds,
    route: analysis.route,
    series: analysis.series,
    pauses: analysis.pauses,
    laps: analysis.laps,
    splits: analysis.splits,
    best_efforts: analysis.best_efforts.map(({ key, distance, time, pace, start }) => ({
      key,
      distance,
      time,
      pace,
      start,
    })),
    elevation: analysis.elevation,
    heart_rate: heartRate,
  };
}
