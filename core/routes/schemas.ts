/**
 * Routes and segments on the wire (CONTRACT.md §22): the bodies the API takes and the answers it
 * gives, and the limits and messages the web app's forms check before sending.
 */
import { z } from 'zod';
import { DECIMAL_RE, INTEGER_RE, requiredText, toNumber } from '../schemas/fields.js';

export const MAX_SEGMENTS = 200;
export const MIN_SEGMENT_M = 100;
export const MAX_SEGMENT_M = 50_000;
export const MAX_ROUTE_NAME = 100;

export const TOO_MANY_SEGMENTS = `You can have at most ${MAX_SEGMENTS} segments.`;
export const SEGMENT_RUN_MESSAGE = 'The run must be one of your runs with a track that has positions.';
export const SEGMENT_LENGTH_MESSAGE = `A segment must be between ${MIN_SEGMENT_M} and ${MAX_SEGMENT_M} m long.`;
export const SEGMENT_BEYOND_TRACK_MESSAGE = "The end_m must not be greater than the track's distance.";
export const SEGMENT_DELETED = 'Segment was deleted.';

const isMissing = (value: unknown) => value === undefined || value === null || value === '';

function numberField(field: string, pattern: RegExp, integer: boolean) {
  const base = z.number({
    error: (issue) =>
      isMissing(issue.input)
        ? `The ${field} field is required.`
        : integer
          ? `The ${field} must be an integer.`
          : `The ${field} must be a number.`,
  });
  return z.preprocess(
    toNumber(pattern),
    (integer ? base.int(`The ${field} must be an integer.`) : base).refine(
      Number.isFinite,
      `The ${field} must be a number.`,
    ),
  );
}

const nameField = requiredText('name', MAX_ROUTE_NAME);

export const NameBodySchema = z.object({ name: nameField });
export type NameBody = z.infer<typeof NameBodySchema>;

export const SegmentBodySchema = z
  .object({
    entry_id: numberField('entry_id', INTEGER_RE, true),
    start_m: numberField('start_m', DECIMAL_RE, false).refine((v) => v >= 0, 'The start_m must be at least 0.'),
    end_m: numberField('end_m', DECIMAL_RE, false),
    name: nameField,
  })
  .superRefine((body, ctx) => {
    const length = body.end_m - body.start_m;
    if (!(length >= MIN_SEGMENT_M && length <= MAX_SEGMENT_M)) {
      ctx.addIssue({ code: 'custom', path: ['end_m'], message: SEGMENT_LENGTH_MESSAGE });
    }
  });
export type SegmentBody = z.infer<typeof SegmentBodySchema>;

export const BestSchema = z.object({ entry_id: z.number(), date: z.string(), time: z.string() });
export type Best = z.infer<typeof BestSchema>;

export const EffortSchema = z.object({
  entry_id: z.number(),
  date: z.string(),
  time: z.string().describe('HH:MM:SS'),
  pace: z.number().describe('min/km, 2 decimals'),
  rank: z.number().describe('1 + the number of strictly faster efforts'),
});

export const RouteSchema = z.object({
  id: z.number(),
  name: z.string(),
  run_count: z.number(),
  distance: z.number().describe('The median of its runs’ distances, km, 3 decimals'),
  best: BestSchema,
  last_date: z.string(),
  polyline: z.string().describe('The founding run’s line, as the map of every run draws it'),
  matching: z.boolean(),
});
export type RouteSummary = z.infer<typeof RouteSchema>;

export const RoutesEnvelopeSchema = z.object({ routes: z.array(RouteSchema) });
export const RouteDetailSchema = RouteSchema.extend({ efforts: z.array(EffortSchema) });
export type RouteDetail = z.infer<typeof RouteDetailSchema>;
export const RouteEnvelopeSchema = z.object({ route: RouteDetailSchema });

export const SegmentSchema = z.object({
  id: z.number(),
  name: z.string(),
  distance_m: z.number(),
  effort_count: z.number(),
  best: BestSchema.nullable(),
  matching: z.boolean(),
});
export type SegmentSummary = z.infer<typeof SegmentSchema>;

export const SegmentsEnvelopeSchema = z.object({ segments: z.array(SegmentSchema) });
export const SegmentDetailSchema = SegmentSchema.extend({ efforts: z.array(EffortSchema) });
export type SegmentDetail = z.infer<typeof SegmentDetailSchema>;
export const SegmentEnvelopeSchema = z.object({ segment: SegmentDetailSchema });
export type Effort = z.infer<typeof EffortSchema>;
