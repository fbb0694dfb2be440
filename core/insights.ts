/**
 * Insights (CONTRACT.md §10): records at standard distances, race predictions, training load,
 * streaks and the year in review. The formulas are pure and shared by the server (which feeds
 * them the maintained tables) and the web app (which explains them); the schemas are the API's.
 * Distances are integer metres (or millimetres for the standard distances) so that "counts for D"
 * and "time at D" are exact integer arithmetic, identical in SQL and here.
 */
import { z } from 'zod';
import { blankToUndefined, EntrySchema, WeeklyQuerySchema } from './schemas.js';
import { addDays, daysBetween, formatDuration, isoWeekStart, isValidDate, round2 } from './time.js';

export interface StandardDistance {
  key: string;
  /** D in km, as the API returns it. */
  km: number;
  /** D in millimetres: an integer, so that every comparison below is exact. */
  mm: number;
  label: string;
}

/** Shortest first (the order of `records`). */
export const STANDARD_DISTANCES: readonly StandardDistance[] = [
  { key: '1k', km: 1, mm: 1_000_000, label: '1 km' },
  { key: '1mi', km: 1.609344, mm: 1_609_344, label: '1 mile' },
  { key: '5k', km: 5, mm: 5_000_000, label: '5 km' },
  { key: '10k', km: 10, mm: 10_000_000, label: '10 km' },
  { key: '15k', km: 15, mm: 15_000_000, label: '15 km' },
  { key: '10mi', km: 16.09344, mm: 16_093_440, label: '10 miles' },
  { key: 'half', km: 21.0975, mm: 21_097_500, label: 'Half marathon' },
  { key: '30k', km: 30, mm: 30_000_000, label: '30 km' },
  { key: 'marathon', km: 42.195, mm: 42_195_000, label: 'Marathon' },
  { key: '50k', km: 50, mm: 50_000_000, label: '50 km' },
];

/** The distances predictions are made for. */
export const PREDICTED_KEYS = ['5k', '10k', 'half', 'marathon'] as const;

export function standardDistance(key: string): StandardDistance {
  const found = STANDARD_DISTANCES.find((d) => d.key === key);
  if (!found) throw new RangeError(`Unknown standard distance: ${key}`);
  return found;
}

/**
 * The whole metres a run may measure to count for D: D <= distance <= 1.03 x D. Runs are stored in
 * whole metres, so these bounds are the rule itself (the database's triggers use them too).
 */
export function countingMetres(d: StandardDistance): { min: number; max: number } {
  return { min: Math.ceil(d.mm / 1000), max: Math.floor((103 * d.mm) / 100_000) };
}

/** True when a run of `distanceM` metres counts for D. */
export function countsFor(distanceM: number, d: StandardDistance): boolean {
  return 1000 * distanceM >= d.mm && 100_000 * distanceM <= 103 * d.mm;
}

/** The standard distance a run counts for, if any (the 3% bands never overlap). */
export function countingDistance(distanceM: number): StandardDistance | null {
  return STANDARD_DISTANCES.find((d) => countsFor(distanceM, d)) ?? null;
}

/** round(a / b), halves up, for non-negative integers a and b > 0 (exact below 2^53). */
export function divideRounded(a: number, b: number): number {
  const twiceA = 2 * a + b;
  const twiceB = 2 * b;
  let q = Math.floor(twiceA / twiceB);
  const r = twiceA - q * twiceB;
  if (r < 0) q -= 1;
  else if (r >= twiceB) q += 1;
  return q;
}

/** A run's time at D: round(run seconds x D / run distance), in whole seconds. */
export function timeAtDistance(seconds: number, distanceM: number, d: StandardDistance): number {
  return divideRounded(seconds * d.mm, distanceM * 1000);
}

/** Pace in min/km. */
export function paceOf(seconds: number, km: number): number {
  return seconds / 60 / km;
}

// ---- Records ----

/**
 * What counts for a standard distance (a row of the maintained table): a run as a whole (§10: its
 * time at D is scaled from its own distance and time), or a best effort of a tracked run (§15:
 * `seconds` is the effort's elapsed time at D, `start` where it starts in the run, metres).
 */
export interface Effort {
  key: string;
  entryId: number;
  date: string;
  distanceM: number;
  seconds: number;
  source: EffortSource;
  start: number | null;
}

export const EFFORT_SOURCES = ['run', 'best_effort'] as const;
export type EffortSource = (typeof EFFORT_SOURCES)[number];

/** An effort's time at its standard distance D, whole seconds. */
export function effortTime(effort: Effort, d: StandardDistance): number {
  return effort.source === 'best_effort' ? effort.seconds : timeAtDistance(effort.seconds, effort.distanceM, d);
}

export interface RecordMark {
  date: string;
  seconds: number;
  entryId: number;
  source: EffortSource;
}

export interface DistanceRecord {
  distance: StandardDistance;
  best: RecordMark;
  progression: RecordMark[];
}

const byDateThenId = (a: { date: string; entryId: number }, b: { date: string; entryId: number }) =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : a.entryId - b.entryId;

/**
 * Records, shortest distance first. The best is the lowest time at D (ties to the earlier date,
 * then the lower id); the progression walks the runs in (date, id) order and keeps the first and
 * every later one strictly faster than all before it. So the best is the progression's last mark.
 */
export function computeRecords(efforts: readonly Effort[]): DistanceRecord[] {
  const records: DistanceRecord[] = [];
  for (const distance of STANDARD_DISTANCES) {
    const runs = efforts.filter((e) => e.key === distance.key).sort(byDateThenId);
    const progression: RecordMark[] = [];
    for (const run of runs) {
      const seconds = effortTime(run, distance);
      const last = progression[progression.length - 1];
      if (!last || seconds < last.seconds) {
        progression.push({ date: run.date, seconds, entryId: run.entryId, source: run.source });
      }
    }
    const best = progression[progression.length - 1];
    if (best) records.push({ distance, best, progression });
  }
  return records;
}

// ---- Predictions ----

/** Daniels-Gilbert VDOT of a run covering `metres` in `seconds`. */
export function vdot(metres: number, seconds: number): number {
  const t = seconds / 60;
  const v = metres / t;
  const vo2 = -4.6 + 0.182258 * v + 0.000104 * v * v;
  const share = 0.8 + 0.1894393 * Math.exp(-0.012778 * t) + 0.2989558 * Math.exp(-0.1932605 * t);
  return vo2 / share;
}

/** Riegel: a time over `fromKm` carried to `toKm` (seconds, unrounded). */
export function riegelSeconds(seconds: number, fromKm: number, toKm: number): number {
  return seconds * (toKm / fromKm) ** 1.06;
}

/**
 * The time (seconds, unrounded) over `metres` whose VDOT equals `target`. VDOT falls as the time
 * grows over every time a run can take, so bisection between one second and four days finds it.
 */
export function vdotSeconds(metres: number, target: number): number {
  let fast = 1;
  let slow = 4 * 86_400;
  for (let i = 0; i < 100 && slow - fast > 1e-7; i++) {
    const middle = (fast + slow) / 2;
    if (vdot(metres, middle) > target) fast = middle;
    else slow = middle;
  }
  return (fast + slow) / 2;
}

/** The run predictions come from, chosen among runs of at least this many metres... */
export const PREDICTION_MIN_METRES = 3000;
/** ...dated from this many days before today to today. */
export const PREDICTION_WINDOW_DAYS = 180;

export interface Run {
  id: number;
  date: string;
  distanceM: number;
  seconds: number;
}

/** Best efforts of at least this many metres are candidates too (§15). */
export const PREDICTION_MIN_EFFORT_METRES = 5000;

/** What a prediction may come from (§15): a run, or a best effort of a tracked run (`key` its distance's). */
export type PredictionCandidate = Run & { kind: EffortSource; key: string | null };

/** Best efforts of a runner as prediction candidates: those of at least 5 km, each at its distance D. */
export function effortCandidates(efforts: readonly Effort[]): PredictionCandidate[] {
  return efforts.flatMap((e) => {
    const d = standardDistance(e.key);
    if (e.source !== 'best_effort' || d.mm < PREDICTION_MIN_EFFORT_METRES * 1000) return [];
    return [
      { id: e.entryId, date: e.date, distanceM: d.mm / 1000, seconds: e.seconds, kind: 'best_effort', key: e.key },
    ];
  });
}

/**
 * The candidate with the highest VDOT; ties to the later date, then the higher id (a best effort
 * ranks as its run; of a run and its own effort exactly as good, the first given).
 */
export function predictionSource(
  candidates: readonly (Run | PredictionCandidate)[],
): (PredictionCandidate & { vdot: number }) | null {
  let best: (PredictionCandidate & { vdot: number }) | null = null;
  for (const candidate of candidates) {
    const run: PredictionCandidate = 'kind' in candidate ? candidate : { ...candidate, kind: 'run', key: null };
    if (run.kind === 'run' && run.distanceM < PREDICTION_MIN_METRES) continue;
    const value = vdot(run.distanceM, run.seconds);
    const better =
      !best ||
      value > best.vdot ||
      (value === best.vdot && (run.date > best.date || (run.date === best.date && run.id > best.id)));
    if (better) best = { ...run, vdot: value };
  }
  return best;
}

export function predict(source: PredictionCandidate & { vdot: number }): Predictions {
  const sourceKm = source.distanceM / 1000;
  return {
    source: {
      entry_id: source.id,
      date: source.date,
      distance: sourceKm,
      time: formatDuration(source.seconds),
      vdot: Math.round(source.vdot * 10 + 1e-9) / 10,
      kind: source.kind,
      key: source.key,
    },
    races: PREDICTED_KEYS.map((key) => {
      const d = standardDistance(key);
      return {
        key,
        distance: d.km,
        riegel_time: formatDuration(riegelSeconds(source.seconds, sourceKm, d.km)),
        vdot_time: formatDuration(vdotSeconds(d.mm / 1000, source.vdot)),
      };
    }),
  };
}

// ---- Training load ----

/** The effort assumed for a run logged without one. */
export const ASSUMED_EFFORT = 5;
export const FITNESS_DAYS = 42;
export const FATIGUE_DAYS = 7;
export const SERIES_DAYS = 90;
export const WEEKLY_WEEKS = 12;
export const ACWR_LIMIT = 1.5;
export const RAMP_LIMIT = 1.3;
export const MONOTONY_LIMIT = 2;
/** Load warnings wait until the first run is this many days before the date (§10). */
export const WARNING_AFTER_DAYS = 28;

/** A runner's day (runner_days): its runs, metres, and effort x seconds (rated runs) and seconds of unrated runs. */
export interface RunnerDay {
  date: string;
  runs: number;
  distanceM: number;
  seconds: number;
  effortSeconds: number;
  unratedSeconds: number;
  unratedRuns: number;
}

/**
 * A day's load in effort x seconds: an integer, so that sums over days are exact; the load in
 * effort x minutes is this over 60.
 */
export function dayEffortSeconds(day: Pick<RunnerDay, 'effortSeconds' | 'unratedSeconds'>): number {
  return day.effortSeconds + ASSUMED_EFFORT * day.unratedSeconds;
}

/**
 * A run without an entered effort whose track has heart rate (§15): the effort estimated from it,
 * which replaces the assumed one in its day's load.
 */
export interface HeartRateRun {
  date: string;
  seconds: number;
  effort: number;
}

/** Runner days with the heart-rate estimates of their unrated runs put in place of the assumed effort. */
function withEstimates(days: readonly RunnerDay[], estimates: readonly HeartRateRun[]): RunnerDay[] {
  if (estimates.length === 0) return [...days];
  const byDate = new Map<string, number>();
  for (const run of estimates) {
    byDate.set(run.date, (byDate.get(run.date) ?? 0) + (run.effort - ASSUMED_EFFORT) * run.seconds);
  }
  return days.map((day) => {
    const extra = byDate.get(day.date);
    return extra === undefined ? day : { ...day, effortSeconds: day.effortSeconds + extra };
  });
}

/**
 * Training load at `date` from the runner's days up to it (days with runs, oldest first; later
 * days are ignored), the unrated runs with heart rate at their estimated effort (`estimates`).
 */
export function computeLoad(days: readonly RunnerDay[], date: string, estimates: readonly HeartRateRun[] = []): Load {
  const upTo = withEstimates(days, estimates).filter((d) => d.date <= date && d.runs > 0);
  let chronicEs = 0;
  let estimated = 0;
  const from28 = addDays(date, -27);
  for (const day of upTo) {
    if (day.date < from28) continue;
    chronicEs += dayEffortSeconds(day);
    estimated += day.unratedRuns;
  }
  const hrEstimated = estimates.filter((run) => run.date >= from28 && run.date <= date).length;

  // Fitness and fatigue from the first run on, over an array of days (a whole history is a few
  // thousand days); the 90 days of the series start within or before.
  const seriesStart = addDays(date, 1 - SERIES_DAYS);
  const series: LoadDay[] = [];
  let fitness = 0;
  let fatigue = 0;
  let first: string | undefined;
  for (const day of upTo) if (first === undefined || day.date < first) first = day.date;
  const start = first !== undefined && first < seriesStart ? first : seriesStart;
  const span = daysBetween(start, date) + 1;
  const effortSeconds = new Float64Array(span);
  for (const day of upTo) effortSeconds[daysBetween(start, day.date)]! += dayEffortSeconds(day);
  const firstOffset = first === undefined ? span : daysBetween(start, first);
  // The 7 days ending at `date` are the last 7 of the array (it spans at least the 90 of the series).
  const last7 = Array.from(effortSeconds.subarray(span - 7));
  const acuteEs = last7.reduce((a, es) => a + es, 0);
  const seriesOffset = span - SERIES_DAYS;
  for (let i = 0; i < span; i++) {
    const load = effortSeconds[i]! / 60;
    if (i >= firstOffset) {
      fitness += (load - fitness) / FITNESS_DAYS;
      fatigue += (load - fatigue) / FATIGUE_DAYS;
    }
    if (i >= seriesOffset) series.push(loadDay(addDays(seriesStart, i - seriesOffset), load, fitness, fatigue));
  }

  const acute = acuteEs / 60;
  const chronic = chronicEs / 60 / 4;
  const acwr = chronic > 0 ? acute / chronic : null;
  // mean / population sd of the 7 daily loads = S / sqrt(7 x sum of squares - S^2), over the integer
  // effort-seconds of each day: a steady week (sd 0) is told exactly, without rounding noise.
  const spread = 7 * last7.reduce((a, es) => a + es * es, 0) - acuteEs * acuteEs;
  const monotony = spread > 0 ? acuteEs / Math.sqrt(spread) : null;
  const strain = monotony === null ? null : acute * monotony;

  const thisWeek = isoWeekStart(date);
  const weeks = Array.from({ length: WEEKLY_WEEKS }, (_, i) => ({
    start: addDays(thisWeek, -7 * (WEEKLY_WEEKS - 1 - i)),
    metres: 0,
    effortSeconds: 0,
  }));
  const firstWeek = weeks[0]!.start;
  for (const day of upTo) {
    if (day.date < firstWeek) continue;
    const week = weeks[Math.floor(daysBetween(firstWeek, day.date) / 7)]!;
    week.metres += day.distanceM;
    week.effortSeconds += dayEffortSeconds(day);
  }
  const before = weeks.slice(-5, -1).reduce((a, w) => a + w.metres, 0) / 4;
  const ramp = before > 0 ? weeks[weeks.length - 1]!.metres / before : null;

  // No warning while the first run is fewer than 28 days before `date`: the chronic window is not
  // filled yet, and a new runner's first weeks are not a spike (§10).
  const settled = first !== undefined && daysBetween(first, date) >= WARNING_AFTER_DAYS;
  const warnings: LoadWarning[] = [];
  if (settled && acwr !== null && acwr > ACWR_LIMIT) warnings.push('acwr_high');
  if (settled && ramp !== null && ramp > RAMP_LIMIT) warnings.push('ramp_high');
  if (settled && monotony !== null && monotony > MONOTONY_LIMIT) warnings.push('monotony_high');

  return {
    date,
    acute: round2(acute),
    chronic: round2(chronic),
    acwr: nullableRound2(acwr),
    monotony: nullableRound2(monotony),
    strain: nullableRound2(strain),
    fitness: round2(fitness),
    fatigue: round2(fatigue),
    form: round2(fitness - fatigue),
    estimated_runs: estimated,
    hr_estimated_runs: hrEstimated,
    assumed_effort: ASSUMED_EFFORT,
    ramp: nullableRound2(ramp),
    warnings,
    series,
    weekly: weeks.map((w) => ({
      week_start: w.start,
      distance: round2(w.metres / 1000),
      load: round2(w.effortSeconds / 60),
    })),
  };
}

function nullableRound2(value: number | null): number | null {
  return value === null ? null : round2(value);
}

function loadDay(date: string, load: number, fitness: number, fatigue: number): LoadDay {
  return {
    date,
    load: round2(load),
    fitness: round2(fitness),
    fatigue: round2(fatigue),
    form: round2(fitness - fatigue),
  };
}

// ---- Streaks ----

/**
 * Current and longest streaks of days and ISO weeks with a run, from the dates with runs (any
 * order, duplicates allowed). Only dates up to `today` count; a current streak still counts when it
 * ended yesterday (last week).
 */
export function computeStreaks(dates: readonly string[], today: string): Streaks {
  // Days as numbers (1970-01-01 is 0, a Thursday), so that consecutive days differ by 1; a day's ISO
  // week is floor((day + 3) / 7), so that consecutive weeks differ by 1 too.
  const now = daysBetween('1970-01-01', today);
  const days = [...new Set(dates.filter((d) => d <= today).map((d) => daysBetween('1970-01-01', d)))].sort(
    (a, b) => a - b,
  );
  const weekOf = (day: number) => Math.floor((day + 3) / 7);
  const weeks = [...new Set(days.map(weekOf))];
  const streaks = (items: number[], current: number) => {
    let longest = 0;
    let run = 0;
    let previous: number | null = null;
    for (const item of items) {
      run = previous !== null && item - previous === 1 ? run + 1 : 1;
      longest = Math.max(longest, run);
      previous = item;
    }
    return { current: previous !== null && current - previous <= 1 ? run : 0, longest };
  };
  const d = streaks(days, now);
  const w = streaks(weeks, weekOf(now));
  return { current_days: d.current, longest_days: d.longest, current_weeks: w.current, longest_weeks: w.longest };
}

// ---- The year ----

/** The longest run (ties to the earlier date, then the lower id). */
export function longestRun<T extends Run>(runs: readonly T[]): T | null {
  let best: T | null = null;
  for (const run of runs) {
    if (
      !best ||
      run.distanceM > best.distanceM ||
      (run.distanceM === best.distanceM && byDateThenId(toKey(run), toKey(best)) < 0)
    )
      best = run;
  }
  return best;
}

/** Runs of at least this many metres compete for the fastest run of a year. */
export const FASTEST_MIN_METRES = 5000;

/** The fastest run of at least 5 km (ties to the earlier date, then the lower id); speeds compared exactly. */
export function fastestRun<T extends Run>(runs: readonly T[]): T | null {
  let best: T | null = null;
  for (const run of runs) {
    if (run.distanceM < FASTEST_MIN_METRES) continue;
    const faster = best ? run.distanceM * best.seconds - best.distanceM * run.seconds : 1;
    if (!best || faster > 0 || (faster === 0 && byDateThenId(toKey(run), toKey(best)) < 0)) best = run;
  }
  return best;
}

const toKey = (run: Run) => ({ date: run.date, entryId: run.id });

// ---- Schemas of the API ----

export const LoadQuerySchema = z.object({
  date: z.preprocess(
    blankToUndefined,
    z
      .string({ error: 'The date must be a string.' })
      .refine(isValidDate, 'The date must be a real date in the format YYYY-MM-DD.')
      .refine((d) => d >= '1900-01-01', 'The date must not be before 1900-01-01.')
      .refine((d) => d <= '2100-12-31', 'The date must not be after 2100-12-31.')
      .optional(),
  ),
});
export type LoadQuery = z.infer<typeof LoadQuerySchema>;

/** `?year=` of the calendar and the year in review: an integer 1900-2100, default the current year. */
export const YearQuerySchema = WeeklyQuerySchema;

const RecordMarkSchema = z.object({ date: z.string(), time: z.string(), entry_id: z.number().int() });

export const RecordSchema = z.object({
  key: z.string(),
  distance: z.number(),
  time: z.string(),
  pace: z.number(),
  date: z.string(),
  entry_id: z.number().int(),
  source: z
    .enum(EFFORT_SOURCES)
    .describe("`best_effort`: the fastest stretch of D within a tracked run; `run`: the run's own"),
  progression: z.array(RecordMarkSchema),
});
export type RecordRow = z.infer<typeof RecordSchema>;
export const RecordsEnvelopeSchema = z.object({ records: z.array(RecordSchema) });

export const PredictionsSchema = z.object({
  source: z.object({
    entry_id: z.number().int(),
    date: z.string(),
    distance: z.number(),
    time: z.string(),
    vdot: z.number(),
    kind: z.enum(EFFORT_SOURCES).describe('A run, or the best effort of a tracked run (distance D, its time)'),
    key: z.string().nullable().describe("The best effort's standard distance; null for a run"),
  }),
  races: z.array(z.object({ key: z.string(), distance: z.number(), riegel_time: z.string(), vdot_time: z.string() })),
});
export type Predictions = z.infer<typeof PredictionsSchema>;
export const PredictionsEnvelopeSchema = z.object({ predictions: PredictionsSchema.nullable() });

export const LOAD_WARNINGS = ['acwr_high', 'ramp_high', 'monotony_high'] as const;
export type LoadWarning = (typeof LOAD_WARNINGS)[number];

const LoadDaySchema = z.object({
  date: z.string(),
  load: z.number(),
  fitness: z.number(),
  fatigue: z.number(),
  form: z.number(),
});
export type LoadDay = z.infer<typeof LoadDaySchema>;

export const LoadSchema = z.object({
  date: z.string().describe('The day the load is computed for'),
  acute: z.number(),
  chronic: z.number(),
  acwr: z.number().nullable(),
  monotony: z.number().nullable(),
  strain: z.number().nullable(),
  fitness: z.number(),
  fatigue: z.number(),
  form: z.number(),
  estimated_runs: z.number().int(),
  hr_estimated_runs: z
    .number()
    .int()
    .describe('Of the estimated runs, those whose effort comes from their heart rate (§15), not the assumed one'),
  assumed_effort: z.number().int().describe('The effort counted for a run without one'),
  ramp: z.number().nullable(),
  warnings: z.array(z.enum(LOAD_WARNINGS)),
  series: z.array(LoadDaySchema),
  weekly: z.array(z.object({ week_start: z.string(), distance: z.number(), load: z.number() })),
});
export type Load = z.infer<typeof LoadSchema>;
export const LoadEnvelopeSchema = z.object({ load: LoadSchema });

export const StreaksSchema = z.object({
  current_days: z.number().int(),
  longest_days: z.number().int(),
  current_weeks: z.number().int(),
  longest_weeks: z.number().int(),
});
export type Streaks = z.infer<typeof StreaksSchema>;
export const StreaksEnvelopeSchema = z.object({ streaks: StreaksSchema });

export const CalendarSchema = z.object({
  year: z.number().int(),
  days: z.array(z.tuple([z.string(), z.number(), z.number().int()])),
});
export type Calendar = z.infer<typeof CalendarSchema>;
export const CalendarEnvelopeSchema = z.object({ calendar: CalendarSchema });

const YearTotalsSchema = z.object({ runs: z.number().int(), distance: z.number(), seconds: z.number().int() });

export const YearReviewSchema = YearTotalsSchema.extend({
  year: z.number().int(),
  avg_pace: z.number().nullable(),
  longest: EntrySchema.nullable(),
  fastest: EntrySchema.nullable(),
  months: z.array(z.number()),
  records: z.array(z.string()),
  previous: YearTotalsSchema,
});
export type YearReview = z.infer<typeof YearReviewSchema>;
export const YearEnvelopeSchema = z.object({ year: YearReviewSchema });
