/**
 * Insights (CONTRACT.md §10) through the API: a property test that drives random histories
 * (creates, edits, deletes, imports in one transaction, a deleted user) and compares every
 * endpoint with a brute-force computation over the runs themselves (access and input are in
 * insights/access.test.ts). Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STANDARD_DISTANCES,
  riegelSeconds,
  vdot,
  vdotSeconds,
  type Calendar,
  type Load,
  type Predictions,
  type RecordRow,
  type Streaks,
  type YearReview,
} from '../../../core/insights.js';
import { addDays, dateInZone, formatDuration, isoWeekStart } from '../../../core/time.js';
import { maintainedTotals, recountedTotals } from '../../../scripts/seed/consistency.js';
import { inTransaction } from '../../context.js';
import { insertRuns } from '../../features/entries/entries.service.js';
import {
  call,
  createEntry,
  createTestApp,
  loginAdmin,
  registerUser,
  type Account,
  type TestApp,
  insightOf,
} from '../helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { now: '2026-03-18T12:00:00Z' });
});
afterAll(async () => t?.close());

const get = <T>(token: string, path: string) => insightOf<T>(t.app, token, path);

// ---- The brute force: every insight recomputed from the runs, the way the contract words it ----

interface ModelRun {
  id: number;
  date: string;
  distanceM: number;
  seconds: number;
  effort: number | null;
}

const byDateId = (a: ModelRun, b: ModelRun) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id);

/** round(seconds x D / distance), halves up, in exact integers. */
function exactTimeAt(run: ModelRun, mm: number): number {
  const num = 2n * BigInt(run.seconds) * BigInt(mm) + BigInt(run.distanceM) * 1000n;
  return Number(num / (2n * BigInt(run.distanceM) * 1000n));
}

function bruteRecords(runs: ModelRun[]) {
  const out = [];
  for (const d of STANDARD_DISTANCES) {
    // D <= distance <= 1.03 D, in millimetres x 100.
    const counting = runs
      .filter((r) => r.distanceM * 1000 >= d.mm && r.distanceM * 100_000 <= d.mm * 103)
      .sort(byDateId);
    if (counting.length === 0) continue;
    const timed = counting.map((r) => ({ run: r, time: exactTimeAt(r, d.mm) }));
    const best = [...timed].sort((a, b) => a.time - b.time || byDateId(a.run, b.run))[0]!;
    const progression = timed.filter((x, i) => timed.slice(0, i).every((y) => x.time < y.time));
    out.push({
      key: d.key,
      distance: d.km,
      time: formatDuration(best.time),
      pace: Math.round((best.time / 60 / d.km) * 100 + 1e-9) / 100,
      date: best.run.date,
      entry_id: best.run.id,
      source: 'run',
      progression: progression.map((p) => ({ date: p.run.date, time: formatDuration(p.time), entry_id: p.run.id })),
    });
  }
  return out;
}

function brutePredictions(runs: ModelRun[], today: string): Predictions | null {
  const from = addDays(today, -180);
  const candidates = runs.filter((r) => r.distanceM >= 3000 && r.date >= from && r.date <= today);
  if (candidates.length === 0) return null;
  const scored = candidates.map((r) => ({ r, v: vdot(r.distanceM, r.seconds) }));
  scored.sort((a, b) => b.v - a.v || (a.r.date < b.r.date ? 1 : a.r.date > b.r.date ? -1 : b.r.id - a.r.id));
  const { r, v } = scored[0]!;
  return {
    source: {
      entry_id: r.id,
      date: r.date,
      distance: r.distanceM / 1000,
      time: formatDuration(r.seconds),
      vdot: Math.round(v * 10 + 1e-9) / 10,
      kind: 'run',
      key: null,
    },
    races: ['5k', '10k', 'half', 'marathon'].map((key) => {
      const d = STANDARD_DISTANCES.find((x) => x.key === key)!;
      return {
        key,
        distance: d.km,
        riegel_time: formatDuration(riegelSeconds(r.seconds, r.distanceM / 1000, d.km)),
        vdot_time: formatDuration(vdotSeconds(d.mm / 1000, v)),
      };
    }),
  };
}

// `+ 0`: JSON has no negative zero, so an answer read back never holds one (-0 + 0 is 0).
const r2 = (x: number) => Math.round(x * 100 + (x >= 0 ? 1e-9 : -1e-9)) / 100 + 0;

function bruteLoad(runs: ModelRun[], date: string) {
  const upTo = runs.filter((r) => r.date <= date);
  // Effort x seconds per day (integers), effort 5 for unrated runs.
  const es = new Map<string, number>();
  for (const r of upTo) es.set(r.date, (es.get(r.date) ?? 0) + (r.effort ?? 5) * r.seconds);
  const loadOn = (d: string) => (es.get(d) ?? 0) / 60;
  const window = (n: number) => Array.from({ length: n }, (_, i) => addDays(date, i - n + 1));
  const acute = window(7).reduce((a, d) => a + (es.get(d) ?? 0), 0) / 60;
  const chronic = window(28).reduce((a, d) => a + (es.get(d) ?? 0), 0) / 60 / 4;
  const seven = window(7).map(loadOn);
  const mean = seven.reduce((a, b) => a + b, 0) / 7;
  const steady = seven.every((x) => x === seven[0]);
  const sd = Math.sqrt(seven.reduce((a, b) => a + (b - mean) ** 2, 0) / 7);
  const monotony = steady ? null : mean / sd;
  const first = upTo.map((r) => r.date).sort()[0];
  let fitness = 0;
  let fatigue = 0;
  const values = new Map<string, [number, number]>();
  if (first) {
    for (let d = first; d <= date; d = addDays(d, 1)) {
      fitness = fitness + (loadOn(d) - fitness) / 42;
      fatigue = fatigue + (loadOn(d) - fatigue) / 7;
      values.set(d, [fitness, fatigue]);
    }
  }
  const weekOf = isoWeekStart(date);
  const weeks = Array.from({ length: 12 }, (_, i) => addDays(weekOf, 7 * (i - 11)));
  const weekMetres = (w: string) =>
    upTo.filter((r) => r.date >= w && r.date <= addDays(w, 6)).reduce((a, r) => a + r.distanceM, 0);
  const before = weeks.slice(7, 11).reduce((a, w) => a + weekMetres(w), 0) / 4;
  const ramp = before > 0 ? weekMetres(weekOf) / before : null;
  const acwr = chronic > 0 ? acute / chronic : null;
  const warnings = [];
  // None while the first run is fewer than 28 days before `date`.
  const settled = first !== undefined && first <= addDays(date, -28);
  if (settled && acwr !== null && acwr > 1.5) warnings.push('acwr_high');
  if (settled && ramp !== null && ramp > 1.3) warnings.push('ramp_high');
  if (settled && monotony !== null && monotony > 2) warnings.push('monotony_high');
  return {
    acute: r2(acute),
    chronic: r2(chronic),
    acwr: acwr === null ? null : r2(acwr),
    monotony,
    fitness: r2(fitness),
    fatigue: r2(fatigue),
    form: r2(fitness - fatigue),
    estimated_runs: upTo.filter((r) => r.effort === null && r.date >= addDays(date, -27)).length,
    ramp: ramp === null ? null : r2(ramp),
    warnings,
    series: window(90).map((d) => {
      const [f, g] = values.get(d) ?? [0, 0];
      return { date: d, load: r2(loadOn(d)), fitness: r2(f), fatigue: r2(g), form: r2(f - g) };
    }),
    weekly: weeks.map((w) => ({
      week_start: w,
      distance: r2(weekMetres(w) / 1000),
      load: r2(
        upTo
          .filter((r) => r.date >= w && r.date <= addDays(w, 6))
          .reduce((a, r) => a + (r.effort ?? 5) * r.seconds, 0) / 60,
      ),
    })),
  };
}

function bruteStreaks(runs: ModelRun[], today: string): Streaks {
  const days = new Set(runs.filter((r) => r.date <= today).map((r) => r.date));
  const weeks = new Set([...days].map(isoWeekStart));
  const current = (set: Set<string>, now: string, step: number) => {
    let at = set.has(now) ? now : addDays(now, -step);
    let n = 0;
    while (set.has(at)) {
      n += 1;
      at = addDays(at, -step);
    }
    return n;
  };
  const longest = (set: Set<string>, step: number) =>
    Math.max(
      0,
      ...[...set]
        .filter((d) => !set.has(addDays(d, -step)))
        .map((d) => {
          let n = 0;
          for (let at = d; set.has(at); at = addDays(at, step)) n += 1;
          return n;
        }),
    );
  return {
    current_days: current(days, today, 1),
    longest_days: longest(days, 1),
    current_weeks: current(weeks, isoWeekStart(today), 7),
    longest_weeks: longest(weeks, 7),
  };
}

function bruteYear(runs: ModelRun[], year: number) {
  const of = (y: number) => runs.filter((r) => r.date.startsWith(`${y}-`));
  const totals = (rs: ModelRun[]) => ({
    runs: rs.length,
    distance: rs.reduce((a, r) => a + r.distanceM, 0) / 1000,
    seconds: rs.reduce((a, r) => a + r.seconds, 0),
  });
  const inYear = of(year);
  const longest = [...inYear].sort((a, b) => b.distanceM - a.distanceM || byDateId(a, b))[0];
  const fastest = inYear
    .filter((r) => r.distanceM >= 5000)
    .sort((a, b) => b.distanceM * a.seconds - a.distanceM * b.seconds || byDateId(a, b))[0];
  const total = totals(inYear);
  return {
    year,
    ...total,
    avg_pace: total.distance > 0 ? r2(total.seconds / total.distance / 60) : null,
    longest: longest?.id ?? null,
    fastest: fastest?.id ?? null,
    months: Array.from(
      { length: 12 },
      (_, m) => inYear.filter((r) => Number(r.date.slice(5, 7)) === m + 1).reduce((a, r) => a + r.distanceM, 0) / 1000,
    ),
    records: bruteRecords(runs)
      .filter((rec) => rec.progression.some((p) => p.date.startsWith(`${year}-`)))
      .map((rec) => rec.key),
    previous: totals(of(year - 1)),
  };
}

function bruteCalendar(runs: ModelRun[], year: number) {
  const days = new Map<string, [number, number]>();
  for (const r of runs.filter((x) => x.date.startsWith(`${year}-`))) {
    const [m, n] = days.get(r.date) ?? [0, 0];
    days.set(r.date, [m + r.distanceM, n + 1]);
  }
  return [...days.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([d, [m, n]]) => [d, m / 1000, n]);
}

async function expectInsights(account: Account, runs: ModelRun[], today: string, loadDate: string) {
  const { records } = await get<{ records: RecordRow[] }>(account.token, 'records');
  expect(records).toEqual(bruteRecords(runs));
  expect((await get<{ predictions: Predictions | null }>(account.token, 'predictions')).predictions).toEqual(
    brutePredictions(runs, today),
  );
  expect((await get<{ streaks: Streaks }>(account.token, 'streaks')).streaks).toEqual(bruteStreaks(runs, today));
  for (const date of [today, loadDate]) {
    const { load } = await get<{ load: Load }>(account.token, `load?date=${date}`);
    const { monotony, ...want } = bruteLoad(runs, date);
    expect(load).toMatchObject(want);
    if (monotony === null) expect(load.monotony).toBeNull();
    else expect(load.monotony).toBeCloseTo(monotony, 2);
  }
  for (const year of new Set([Number(today.slice(0, 4)), Number(loadDate.slice(0, 4))])) {
    const { calendar } = await get<{ calendar: Calendar }>(account.token, `calendar?year=${year}`);
    expect(calendar).toEqual({ year, days: bruteCalendar(runs, year) });
    const review = (await get<{ year: YearReview }>(account.token, `year?year=${year}`)).year;
    expect({ ...review, longest: review.longest?.id ?? null, fastest: review.fastest?.id ?? null }).toEqual(
      bruteYear(runs, year),
    );
  }
}

// ---- Random histories ----

const ZONES = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Berlin', 'America/New_York'];

/** Distances at the edges of the standard distances (D, 1.03 x D, a metre either side) and anywhere. */
const distanceArb = fc.oneof(
  fc.tuple(fc.constantFrom(...STANDARD_DISTANCES), fc.constantFrom('min', 'max', 'below', 'above')).map(([d, edge]) => {
    const min = Math.ceil(d.mm / 1000);
    const max = Math.floor((103 * d.mm) / 100_000);
    return { min, max, below: min - 1, above: max + 1 }[edge];
  }),
  fc.integer({ min: 1000, max: 55_000 }),
);

const runArb = fc.record({
  back: fc.integer({ min: 0, max: 800 }),
  distanceM: distanceArb,
  // 3:00 to 8:00 min/km, so always under 50 km/h.
  secondsPerKm: fc.integer({ min: 180, max: 480 }),
  effort: fc.option(fc.integer({ min: 1, max: 10 }), { nil: null }),
  /** Copy the date, distance and time of an earlier run: a tie. */
  tieWith: fc.option(fc.nat(), { nil: null }),
});

type RunInput = typeof runArb extends fc.Arbitrary<infer R> ? R : never;

const opArb = fc.oneof(
  { weight: 5, arbitrary: runArb.map((run) => ({ op: 'create' as const, run })) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('edit' as const), pick: fc.nat(), run: runArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('import' as const), runs: fc.array(runArb, { maxLength: 6 }) }) },
);

describe('insights: exact under every write (property)', () => {
  it('equal a brute-force computation over random histories', async () => {
    const admin = await loginAdmin(t.app);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ZONES),
        fc.array(opArb, { minLength: 1, maxLength: 24 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 23 }),
        async (zone, ops, loadBack, hour) => {
          t.clock.set(`2026-03-18T${String(hour).padStart(2, '0')}:30:00Z`);
          const today = dateInZone(t.clock.now(), zone);
          const runner = await registerUser(t.app, { timezone: zone });
          // A bystander whose runs must never show, deleted at the end with all of theirs.
          const bystander = await registerUser(t.app, { timezone: zone });
          await createEntry(t.app, bystander.token, { date: addDays(today, -1), distance: 5, time: '00:15:00' });
          const runs: ModelRun[] = [];
          const shape = (run: RunInput) => {
            const tie = run.tieWith !== null && runs.length > 0 ? runs[run.tieWith % runs.length]! : null;
            const date = tie?.date ?? addDays(today, -run.back);
            const distanceM = tie?.distanceM ?? run.distanceM;
            const seconds = tie?.seconds ?? Math.max(1, Math.round((distanceM / 1000) * run.secondsPerKm));
            return { date, distanceM, seconds, effort: run.effort };
          };
          const body = (r: ReturnType<typeof shape>) => ({
            date: r.date,
            distance: r.distanceM / 1000,
            time: formatDuration(r.seconds),
            effort: r.effort,
          });
          for (const step of ops) {
            if (step.op === 'create') {
              const r = shape(step.run);
              const entry = await createEntry(t.app, runner.token, body(r));
              runs.push({ id: entry.id, ...r });
            } else if (step.op === 'edit' && runs.length > 0) {
              const target = runs[step.pick % runs.length]!;
              const r = shape(step.run);
              const res = await call(t.app, 'PUT', `/api/v1/entry/${target.id}`, {
                token: runner.token,
                body: body(r),
              });
              expect(res.statusCode, res.body).toBe(200);
              Object.assign(target, r);
            } else if (step.op === 'delete' && runs.length > 0) {
              const [target] = runs.splice(step.pick % runs.length, 1);
              const res = await call(t.app, 'DELETE', `/api/v1/entry/${target!.id}`, { token: runner.token });
              expect(res.statusCode, res.body).toBe(200);
            } else if (step.op === 'import') {
              const shaped = step.runs.map(shape);
              const ctx = t.app.appContext;
              const created = await inTransaction(ctx, (trx) =>
                insertRuns(
                  trx,
                  runner.user.id,
                  shaped.map((r) => ({
                    date: r.date,
                    distanceKm: r.distanceM / 1000,
                    seconds: r.seconds,
                    effort: r.effort,
                  })),
                  t.clock.now().toISOString(),
                ),
              );
              created.forEach((entry, i) => runs.push({ id: entry.id, ...shaped[i]! }));
            }
          }
          const del = await call(t.app, 'DELETE', `/api/v1/user/${bystander.user.id}`, { token: admin.token });
          expect(del.statusCode, del.body).toBe(200);
          await expectInsights(runner, runs, today, addDays(today, -loadBack));
          const db = t.app.appContext.db;
          expect(await maintainedTotals(db)).toEqual(await recountedTotals(db));
        },
      ),
      { numRuns: 14, interruptAfterTimeLimit: 60_000 },
    );
  }, 120_000);

  it('warn of nothing while the first run is fewer than 28 days before the date', async () => {
    const runner = await registerUser(t.app, { timezone: 'UTC' });
    // One easy run, then nothing until a long hard one 27 days later.
    await createEntry(t.app, runner.token, { date: '2026-02-10', distance: 5, time: '00:30:00', effort: 2 });
    await createEntry(t.app, runner.token, { date: '2026-03-09', distance: 20, time: '02:00:00', effort: 9 });
    const early = (await get<{ load: Load }>(runner.token, 'load?date=2026-03-09')).load;
    expect(early.acwr).toBeGreaterThan(1.5);
    expect(early.ramp).toBeGreaterThan(1.3);
    expect(early.warnings).toEqual([]);
    // A day later the first run is 28 days back: the same spike warns.
    const settled = (await get<{ load: Load }>(runner.token, 'load?date=2026-03-10')).load;
    expect(settled.warnings).toEqual(['acwr_high', 'ramp_high']);

    // A new runner's first week, the same hard run every day but one: monotonous, yet no warning.
    const beginner = await registerUser(t.app, { timezone: 'UTC' });
    for (const [i, time] of [
      '00:20:00',
      '01:00:00',
      '01:05:00',
      '01:00:00',
      '01:05:00',
      '01:00:00',
      '01:05:00',
    ].entries()) {
      await createEntry(t.app, beginner.token, { date: addDays('2026-03-12', i), distance: 10, time, effort: 7 });
    }
    const week = (await get<{ load: Load }>(beginner.token, 'load?date=2026-03-18')).load;
    expect(week.monotony).toBeGreaterThan(2);
    expect(week.warnings).toEqual([]);
  });

  it('follow a run moved across a year boundary and a whole history deleted with its user', async () => {
    const runner = await registerUser(t.app, { timezone: 'UTC' });
    const a = await createEntry(t.app, runner.token, { date: '2025-12-31', distance: 10, time: '00:45:00' });
    await createEntry(t.app, runner.token, { date: '2026-01-02', distance: 10.3, time: '00:47:00' });
    expect((await get<{ year: YearReview }>(runner.token, 'year?year=2025')).year.records).toEqual(['10k']);
    await call(t.app, 'PUT', `/api/v1/entry/${a.id}`, {
      token: runner.token,
      body: { date: '2026-01-01', distance: 10, time: '00:45:00' },
    });
    expect((await get<{ year: YearReview }>(runner.token, 'year?year=2025')).year).toMatchObject({
      runs: 0,
      records: [],
    });
    expect((await get<{ year: YearReview }>(runner.token, 'year?year=2026')).year.previous.runs).toBe(0);
    const admin = await loginAdmin(t.app);
    await call(t.app, 'DELETE', `/api/v1/user/${runner.user.id}`, { token: admin.token });
    const left = await t.app.appContext.db
      .selectFrom('runner_efforts')
      .select('entry_id')
      .where('user_id', '=', runner.user.id)
      .execute();
    expect(left).toEqual([]);
  });
});
