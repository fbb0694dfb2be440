import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CalendarEnvelopeSchema,
  LoadEnvelopeSchema,
  LoadQuerySchema,
  PredictionsEnvelopeSchema,
  RecordsEnvelopeSchema,
  StreaksEnvelopeSchema,
  YearEnvelopeSchema,
  YearQuerySchema,
} from '../../../core/insights.js';
import { ErrorSchema } from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/authenticate.js';
import { calendar, load, predictions, records, streaks, yearReview } from './insights.service.js';

/** Insights of the caller's own runs (CONTRACT.md §10): nobody else's runs are ever read. Every answer may be kept. */
export function insightsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const tags = ['insights'];
    const config = { cache: true };

    typed.get('/insights/records', {
      onRequest,
      config,
      schema: {
        tags,
        summary: 'My records at the standard distances, with their progression',
        description:
          'One row per standard distance (1k, 1mi, 5k, 10k, 15k, 10mi, half, 30k, marathon, 50k) with at least one ' +
          'counting run, shortest first. A run counts for D when D <= its distance <= 1.03 x D; its time at D is ' +
          'round(seconds x D / distance), as "HH:MM:SS". The record is the lowest time at D (ties: earlier date, then ' +
          'lower id); `pace` is min/km at D (2 decimals). `progression` walks the counting runs in (date, id) order and ' +
          'keeps the first and every later one strictly faster than all before it, oldest first.',
        security,
        response: { 200: RecordsEnvelopeSchema, 401: ErrorSchema },
      },
      handler: async (request) => ({ records: await records(ctx, actorOf(request)) }),
    });

    typed.get('/insights/predictions', {
      onRequest,
      config,
      schema: {
        tags,
        summary: 'Race predictions (Riegel and VDOT) from my best recent run',
        description:
          'The source is, among my runs of at least 3 km dated from today - 180 days to today (my time zone), the one ' +
          'with the highest VDOT (Daniels-Gilbert; ties: later date, then higher id); `vdot` is rounded to 1 decimal. ' +
          'For 5k, 10k, half and marathon: `riegel_time` = source seconds x (D / source distance)^1.06; `vdot_time` = ' +
          'the time at D with the same unrounded VDOT, solved by bisection. Both "HH:MM:SS", to the nearest second. ' +
          '`predictions` is null without such a run.',
        security,
        response: { 200: PredictionsEnvelopeSchema, 401: ErrorSchema },
      },
      handler: async (request) => ({ predictions: await predictions(ctx, actorOf(request)) }),
    });

    typed.get('/insights/load', {
      onRequest,
      config,
      schema: {
        tags,
        summary: 'My training load at a date (default today)',
        description:
          'From my runs dated up to `date` (default: today in my time zone; any real date 1900-01-01..2100-12-31; ' +
          'later runs are ignored). Session load = effort x minutes; a run without effort counts as effort 5 ' +
          '(`assumed_effort`), and `estimated_runs` counts such runs among the 28 days ending at `date`. `acute` = sum ' +
          'of the 7 days ending at `date`; `chronic` = sum of the 28 days / 4; `acwr` = acute / chronic (null when ' +
          'chronic is 0); `monotony` = mean / population standard deviation of the 7 daily loads (null when that is 0); ' +
          '`strain` = acute x monotony. `fitness` and `fatigue` are exponentially weighted (k = 42 and 7) from the first ' +
          'run on, `form` = fitness - fatigue. `series`: the 90 days ending at `date`, oldest first. `weekly`: the 12 ISO ' +
          'weeks ending with the week of `date` (counted up to `date`), oldest first, distance in km. `ramp` = that ' +
          "week's distance / the mean of the 4 weeks before (null when 0). `warnings`, in this order: acwr_high " +
          '(acwr > 1.5), ramp_high (ramp > 1.3), monotony_high (monotony > 2); none while my first run is fewer than 28 days ' +
          'before `date`. Unrounded throughout; 2 decimals on output.',
        security,
        querystring: LoadQuerySchema,
        response: { 200: LoadEnvelopeSchema, 401: ErrorSchema, 422: ErrorSchema },
      },
      handler: async (request) => ({ load: await load(ctx, actorOf(request), request.query.date) }),
    });

    typed.get('/insights/streaks', {
      onRequest,
      config,
      schema: {
        tags,
        summary: 'My current and longest streaks of days and ISO weeks with a run',
        description:
          'Consecutive days (ISO weeks, Monday to Sunday) with at least one run, in my time zone; only runs dated up to ' +
          'today count. A current streak still counts when its last day is yesterday (its last week is last week); ' +
          'otherwise it is 0.',
        security,
        response: { 200: StreaksEnvelopeSchema, 401: ErrorSchema },
      },
      handler: async (request) => ({ streaks: await streaks(ctx, actorOf(request)) }),
    });

    typed.get('/insights/calendar', {
      onRequest,
      config,
      schema: {
        tags,
        summary: 'My days with runs in a calendar year (default this year)',
        description:
          '`days`: `[date, distance km, runs]` for each day of the calendar year with at least one run, oldest first.',
        security,
        querystring: YearQuerySchema,
        response: { 200: CalendarEnvelopeSchema, 401: ErrorSchema, 422: ErrorSchema },
      },
      handler: async (request) => ({ calendar: await calendar(ctx, actorOf(request), request.query.year) }),
    });

    typed.get('/insights/year', {
      onRequest,
      config,
      schema: {
        tags,
        summary: 'My year in review (calendar year, default this year)',
        description:
          'Totals of the calendar year (runs, distance km, seconds) and of the year before (`previous`); `avg_pace` = ' +
          'seconds / km / 60 (null without runs); `months`: 12 distances, January first; `longest`: the longest run, ' +
          '`fastest`: the highest speed among runs of at least 5 km (ties: earlier date, then lower id; null when none); ' +
          '`records`: the keys of the standard distances, shortest first, whose progression has a run dated in the year.',
        security,
        querystring: YearQuerySchema,
        response: { 200: YearEnvelopeSchema, 401: ErrorSchema, 422: ErrorSchema },
      },
      handler: async (request) => ({ year: await yearReview(ctx, actorOf(request), request.query.year) }),
    });
  };
}
