/**
 * Insights of the caller's own runs (CONTRACT.md §10). Each reads the maintained tables
 * (runner_efforts, runner_days) or a bounded window of runs, and hands them to the pure formulas
 * of core/insights.ts; numbers are rounded there, on output only. Their routes declare that the
 * answers may be kept (http/answer-cache.ts, decision 034).
 */
import {
  PREDICTION_MIN_METRES,
  PREDICTION_WINDOW_DAYS,
  WEEKLY_WEEKS,
  computeLoad,
  computeRecords,
  computeStreaks,
  effortCandidates,
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
import { addDays, formatDuration, isoWeekStart, round2 } from '../../../core/time.js';
import { estimatedEffort, observedMaxUsed } from '../../../core/tracks/heart-rate.js';
import { todayOf, type AppContext } from '../../context.js';
import { showEntry } from '../entries/entries.service.js';
import {
  listDayLoads,
  listDays,
  listEfforts,
  listHeartRateRuns,
  listRunDates,
  listRuns,
  totals,
} from './insights.repository.js';

type Owner = Actor & { timezone: string };

/** The first date any run may have: fitness and streaks start from the first run ever. */
const EVER = '0000-01-01';

async function recordsNow(ctx: AppContext, owner: Owner): Promise<RecordRow[]> {
  return computeRecords(await listEfforts(ctx.db, owner.id)).map(({ distance, best, progression }) => ({
    key: distance.key,
    distance: distance.km,
    time: formatDuration(best.seconds),
    pace: round2(paceOf(best.seconds, distance.km)),
    date: best.date,
    entry_id: best.entryId,
    source: best.source,
    progression: progression.map((mark) => ({
      date: mark.date,
      time: formatDuration(mark.seconds),
      entry_id: mark.entryId,
    })),
  }));
}

/** §15: the runs of the window and the best efforts of its tracked runs, the highest VDOT of them all. */
async function predictionsAt(ctx: AppContext, owner: Owner, today: string): Promise<Predictions | null> {
  const from = addDays(today, -PREDICTION_WINDOW_DAYS);
  const [runs, efforts] = await Promise.all([
    listRuns(ctx.db, owner.id, from, today, PREDICTION_MIN_METRES),
    listEfforts(ctx.db, owner.id),
  ]);
  const inWindow = efforts.filter((e) => e.date >= from && e.date <= today);
  const source = predictionSource([...runs, ...effortCandidates(inWindow)]);
  return source ? predict(source) : null;
}

/**
 * The load needs every day from the first run on (fitness and fatigue) but the detail of days
 * (distance, unrated runs) only for its windows: the older days come as their load alone.
 */
async function loadNow(ctx: AppContext, owner: Owner, day: string): Promise<Load> {
  const detailFrom = addDays(isoWeekStart(day), -7 * WEEKLY_WEEKS);
  const [history, recent, heartRate] = await Promise.all([
    listDayLoads(ctx.db, owner.id, EVER, addDays(detailFrom, -1)),
    listDays(ctx.db, owner.id, detailFrom, day),
    listHeartRateRuns(ctx.db, owner.id, day),
  ]);
  // §15: an unrated run with heart rate counts at the effort its heart rate says, for the owner's
  // maximum heart rate now (the profile's, else the highest of their tracks, at most 220).
  const estimates = heartRate.flatMap((run) => {
    const maxUsed = run.profileMax ?? observedMaxUsed(run.observedMax ?? run.summary.max);
    const effort = estimatedEffort(run.summary, maxUsed);
    return effort === null ? [] : [{ date: run.date, seconds: run.seconds, effort }];
  });
  return computeLoad([...history, ...recent], day, estimates);
}

async function streaksAt(ctx: AppContext, owner: Owner, today: string): Promise<Streaks> {
  return computeStreaks(await listRunDates(ctx.db, owner.id, today), today);
}

const currentYear = (ctx: AppContext, owner: Owner) => Number(todayOf(ctx, owner).slice(0, 4));
const yearBounds = (year: number) => {
  const y = String(year).padStart(4, '0');
  return { from: `${y}-01-01`, to: `${y}-12-31` };
};

async function calendarNow(ctx: AppContext, owner: Owner, year: number): Promise<Calendar> {
  const { from, to } = yearBounds(year);
  const days = await listDays(ctx.db, owner.id, from, to);
  return { year, days: days.map((d) => [d.date, d.distanceM / 1000, d.runs]) };
}

/** The year in review; its `records` from the records' progressions. */
async function yearReviewNow(ctx: AppContext, owner: Owner, year: number): Promise<YearReview> {
  const { from, to } = yearBounds(year);
  const previousYear = yearBounds(year - 1);
  const [days, previous, runs, recordRows] = await Promise.all([
    listDays(ctx.db, owner.id, from, to),
    totals(ctx.db, owner.id, previousYear.from, previousYear.to),
    listRuns(ctx.db, owner.id, from, to),
    recordsNow(ctx, owner),
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
    records: recordRows
      .filter((r) => r.progression.some((mark) => mark.date >= from && mark.date <= to))
      .map((r) => r.key),
    previous: { runs: previous.runs, distance: previous.distanceM / 1000, seconds: previous.seconds },
  };
}

/** Records depend on the runs alone. */
export function records(ctx: AppContext, owner: Owner): Promise<RecordRow[]> {
  return recordsNow(ctx, owner);
}

/** Predictions depend on today in the runner's zone (the 180-day window). */
export function predictions(ctx: AppContext, owner: Owner): Promise<Predictions | null> {
  return predictionsAt(ctx, owner, todayOf(ctx, owner));
}

export function load(ctx: AppContext, owner: Owner, date: string | undefined): Promise<Load> {
  return loadNow(ctx, owner, date ?? todayOf(ctx, owner));
}

export function streaks(ctx: AppContext, owner: Owner): Promise<Streaks> {
  return streaksAt(ctx, owner, todayOf(ctx, owner));
}

export function calendar(ctx: AppContext, owner: Owner, requested: number | undefined): Promise<Calendar> {
  return calendarNow(ctx, owner, requested ?? currentYear(ctx, owner));
}

export function yearReview(ctx: AppContext, owner: Owner, requested: number | undefined): Promise<YearReview> {
  return yearReviewNow(ctx, owner, requested ?? currentYear(ctx, owner));
}
