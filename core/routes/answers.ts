/**
 * The answers of the routes and segments API (CONTRACT.md §22) as the web app reads them: one zod
 * schema per answer. Unknown fields are left out, so a field the server adds later breaks nothing.
 */
import { z } from 'zod';

const wholeNumber = z.number().int();

/** The fastest run of a route or segment. */
export const BestSchema = z.object({
  entry_id: wholeNumber,
  date: z.string().describe('YYYY-MM-DD'),
  time: z.string().describe('HH:MM:SS'),
});
export type Best = z.infer<typeof BestSchema>;

/** One run over a route or segment, ranked: 1 + the number of strictly faster efforts. */
export const EffortSchema = z.object({
  entry_id: wholeNumber,
  date: z.string().describe('YYYY-MM-DD'),
  time: z.string().describe('HH:MM:SS'),
  pace: z.union([z.number(), z.string()]).describe('min/km, 2 decimals'),
  rank: wholeNumber,
});
export type Effort = z.infer<typeof EffortSchema>;

export const RouteSummarySchema = z.object({
  id: wholeNumber,
  name: z.string(),
  run_count: wholeNumber,
  distance: z.number().describe('km, the median of its runs'),
  best: BestSchema.nullable(),
  last_date: z.string().describe('YYYY-MM-DD'),
  polyline: z.string().describe('Google encoded polyline (precision 5), at most 200 points'),
  matching: z.boolean().optional(),
});
export type RouteSummary = z.infer<typeof RouteSummarySchema>;
export const RoutesListEnvelopeSchema = z.object({ routes: z.array(RouteSummarySchema) });

export const RouteDetailSchema = RouteSummarySchema.extend({ efforts: z.array(EffortSchema) });
export type RouteDetail = z.infer<typeof RouteDetailSchema>;
export const RouteEnvelopeSchema = z.object({ route: RouteDetailSchema });

export const SegmentSummarySchema = z.object({
  id: wholeNumber,
  name: z.string(),
  distance_m: z.number(),
  effort_count: wholeNumber,
  best: BestSchema.nullable(),
  matching: z.boolean(),
});
export type SegmentSummary = z.infer<typeof SegmentSummarySchema>;
export const SegmentsListEnvelopeSchema = z.object({ segments: z.array(SegmentSummarySchema) });

export const SegmentDetailSchema = SegmentSummarySchema.extend({ efforts: z.array(EffortSchema).default([]) });
export type SegmentDetail = z.infer<typeof SegmentDetailSchema>;
export const SegmentEnvelopeSchema = z.object({ segment: SegmentDetailSchema });

/** `POST /segments`. */
export interface SegmentCreateBody {
  entry_id: number;
  start_m: number;
  end_m: number;
  name: string;
}
/** The limits of a segment's length, in metres. */
export const SEGMENT_MIN_M = 100;
export const SEGMENT_MAX_M = 50_000;

/** What `GET /entry/{id}/track` adds beside the track: the run's route and its segment efforts. */
export const TrackRouteSchema = z.object({
  id: wholeNumber,
  name: z.string(),
  rank: wholeNumber.nullable(),
  best: BestSchema.nullable(),
});
export type TrackRoute = z.infer<typeof TrackRouteSchema>;
export const TrackSegmentSchema = z.object({
  id: wholeNumber,
  name: z.string(),
  time: z.string(),
  rank: wholeNumber,
});
export type TrackSegment = z.infer<typeof TrackSegmentSchema>;

/**
 * The track answer's `route` and `segments`, beside `track` (whose own `route` is its line, §14). A
 * server without routes sends neither: no route, no segments.
 */
export const TrackPlacesSchema = z.object({
  route: TrackRouteSchema.nullable().optional().default(null),
  segments: z.array(TrackSegmentSchema).optional().default([]),
});
export type TrackPlaces = z.infer<typeof TrackPlacesSchema>;
