/**
 * Insights of the caller's own runs (CONTRACT.md §10). Each reads the maintained tables
 * (runner_efforts, runner_days) or a bounded window of runs, and hands them to the pure formulas
 * of core/insights.ts; numbers are rounded there, on output only.
 */
import {
  PREDICTION_MIN_METRES,
  PREDICTION_WINDOW_DAYS,
  WEEKLY_WEEKS,
  computeLoad,
  computeRecords,
  computeStreaks,
  fastestRun,
  longestRun,
  paceOf,
  predict,
  predictionSource,
  type Calendar,
  type Load,
  type Predictions,
  type RecordRow,
  type Streaks,
  type YearReview,
} from '../../../core/insights.js';
import type { Actor } from '../../../core/permissions.js';
import { addDays, dateInZone, formatDuration, isoWeekStart, round2 } from '../../../core/time.js';
import type { AppContext } from '../../context.js';
import { showEntry } from '../entries/entries.service.js';
import { listDayLoads, listDays, listEfforts, listRunDates, listRuns, totals } from './insights.repository.js';

type Owner = Actor & { timezone: string };

/** The first date any run may have: fitness and streaks start from the first run ever. */
const EVER = '0000-01-01';

const todayOf = (ctx: AppContext, owner: Owner) => dateInZone(ctx.config.now(), owner.timezone);

export async function records(ctx: AppContext, owner: Owner): Promise<RecordRow[]> {
  return computeRecords(await listEfforts(ctx.db, owner.id)).map(({ distance, best, progression }) => ({
    key: distance.key,
    distance: distance.km,
    time: formatDuration(best.seconds),
    pace: round2(paceOf(best.seconds, distance.km)),
    date: best.date,
    entry_id: best.entryId,
    progression: progression.map((mark) => ({
      date: mark.date,
      time: formatDuration(mark.seconds),
      entry_id: mark.entryId,
    })),
  }));
}

export async function predictions(ctx: AppContext, owner: Owner): Promise<Predictions | null> {
  const today = todayOf(ctx, owner);
  const runs = await listRuns(ctx.db, owner.id, addDays(today, -PREDICTION_WINDOW_DAYS), today, PREDICTION_MIN_METRES);
  const source = predictionSource(runs);
  return source ? predict(source) : null;
}

/**
 * The load needs every day from the first run on (fitness and fatigue) but the detail of days
 * (distance, unrated runs) only for its windows: the older days come as their load alone.
 */
export async function load(ctx: AppContext, owner: Owner, date: string | undefined): Promise<Load> {
  const day = date ?? todayOf(ctx, owner);
  const detailFrom = addDays(isoWeekStart(day), -7 * WEEKLY_WEEKS);
  const [history, recent] = await Promise.all([
    listDayLoads(ctx.db, owner.id, EVER, addDays(detailFrom, -1)),
    listDays(ctx.db, owner.id, detailFrom, day),
  ]);
  return computeLoad([...history, ...recent], day);
}

export async function streaks(ctx: AppContext, owner: Owner): Promise<Streaks> {
  const today = todayOf(ctx, owner);
  return computeStreaks(await listRunDates(ctx.db, owner.id, today), today);
}

const currentYear = (ctx: AppContext, owner: Owner) => Number(todayOf(ctx, owner).slice(0, 4));
const yearBounds = (year: number) => {
  const y = String(year).padStart(4, '0');
  return { from: `${y}-01-01`, to: `${y}-12-31` };
};

export async function calendar(ctx: AppContext, owner: Owner, requested: number | undefined): Promise<Calendar> {
  const year = requested ?? currentYear(ctx, owner);
  const { from, to } = yearBounds(year);
  const days = await listDays(ctx.db, owner.id, from, to);
  return { year, days: days.map((d) => [d.date, d.distanceM / 1000, d.runs]) };
}

export async function yearReview(ctx: AppContext, owner: Owner, requested: number | undefined): Promise<YearReview> {
  const year = requested ?? currentYear(ctx, owner);
  const { from, to } = yearBounds(year);
  const previousYear = yearBounds(year - 1);
  const [days, previous, runs, efforts] = await Promise.all([
    listDays(ctx.db, owner.id, from, to),
    totals(ctx.db, owner.id, previousYear.from, previousYear.to),
    listRuns(ctx.db, owner.id, from, to),
    listEfforts(ctx.db, owner.id),
  ]);
  const months = Array.from({ length: 12 }, () => 0);
  const current = { runs: 0, distance: 0, seconds: 0 };
  let metres = 0;
  for (const d of days) {
    months[Number(d.date.slice(5, 7)) - 1]! += d.distanceM;
    metres += d.distanceM;
    current.runs += d.runs;
    current.seconds += d.seconds;
  }
  current.distance = metres / 1000;
  const longest = longestRun(runs);
  const fastest = fastestRun(runs);
  const [longestEntry, fastestEntry] = await Promise.all([
    longest ? showEntry(ctx, owner, longest.id) : null,
    fastest ? showEntry(ctx, owner, fastest.id) : null,
  ]);
  return {
    year,
    ...current,
    avg_pace: current.distance > 0 ? round2(paceOf(current.seconds, current.distance)) : null,
    longest: longestEntry,
    fastest: fastestEntry,
    months: months.map((metres) => metres / 1000),
    records: computeRecords(efforts)
      .filter((r) => r.progression.some((mark) => mark.date >= from && mark.date <= to))
      .map((r) => r.distance.key),
    previous: { runs: previous.runs, distance: previous.distanceM / 1000, seconds: previous.seconds },
  };
}
