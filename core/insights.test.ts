import { describe, expect, it } from 'vitest';
import {
  computeLoad,
  computeRecords,
  computeStreaks,
  countingDistance,
  effortCandidates,
  countingMetres,
  countsFor,
  fastestRun,
  longestRun,
  predict,
  predictionSource,
  riegelSeconds,
  standardDistance,
  STANDARD_DISTANCES,
  timeAtDistance,
  vdot,
  vdotSeconds,
  type RunnerDay,
} from './insights.js';
import { addDays, formatDuration, parseDuration } from './time.js';

const fiveK = standardDistance('5k');
const half = standardDistance('half');

describe('counting for a standard distance', () => {
  it('counts a run from D to 1.03 x D, whole metres, and no further', () => {
    expect(countsFor(5000, fiveK)).toBe(true);
    expect(countsFor(5150, fiveK)).toBe(true);
    expect(countsFor(4999, fiveK)).toBe(false);
    expect(countsFor(5151, fiveK)).toBe(false);
    // The half is 21,097.5 m: 21,097 m is short of it, 1.03 x D = 21,730.425 m.
    expect(countsFor(21097, half)).toBe(false);
    expect(countsFor(21098, half)).toBe(true);
    expect(countsFor(21730, half)).toBe(true);
    expect(countsFor(21731, half)).toBe(false);
    expect(countingMetres(half)).toEqual({ min: 21098, max: 21730 });
    expect(countingMetres(standardDistance('1mi'))).toEqual({ min: 1610, max: 1657 });
  });

  it('never lets a run count for two distances', () => {
    for (let metres = 900; metres <= 52_000; metres++) {
      expect(STANDARD_DISTANCES.filter((d) => countsFor(metres, d)).length).toBeLessThanOrEqual(1);
    }
    expect(countingDistance(10_300)?.key).toBe('10k');
    expect(countingDistance(12_000)).toBeNull();
  });

  it('carries the time to D and rounds halves up', () => {
    // 5.1 km in 25:30 is 25:00 at 5 km.
    expect(timeAtDistance(parseDuration('00:25:30')!, 5100, fiveK)).toBe(1500);
    // 1001 s over 5,002 m: 1000.6 s at 5 km, rounded to 1001; 5,004 m: 1000.2 -> 1000.
    expect(timeAtDistance(1001, 5002, fiveK)).toBe(1001);
    expect(timeAtDistance(1001, 5004, fiveK)).toBe(1000);
    // Exactly half a second: 5,000 x 201 / 5,150 is not; 3 s over 2 x D is 1.5 -> 2.
    expect(timeAtDistance(3, 10_000, fiveK)).toBe(2);
    // A marathon's own distance keeps its time.
    expect(timeAtDistance(10_800, 42_195, standardDistance('marathon'))).toBe(10_800);
  });
});

describe('records and their progression', () => {
  it('keeps the first run and every later strictly faster one; ties go to the earlier date, then the lower id', () => {
    const run = { source: 'run' as const, start: null };
    const efforts = [
      { key: '5k', entryId: 9, date: '2024-03-01', distanceM: 5000, seconds: 1500, ...run },
      { key: '5k', entryId: 3, date: '2024-01-01', distanceM: 5000, seconds: 1600, ...run },
      { key: '5k', entryId: 4, date: '2024-02-01', distanceM: 5100, seconds: 1530, ...run }, // 1500 at 5 km
      { key: '5k', entryId: 2, date: '2024-02-01', distanceM: 5000, seconds: 1500, ...run }, // same day, lower id
      { key: '10k', entryId: 5, date: '2023-01-01', distanceM: 10_000, seconds: 3000, ...run },
    ];
    const records = computeRecords(efforts);
    expect(records.map((r) => r.distance.key)).toEqual(['5k', '10k']);
    const [fivek] = records;
    expect(fivek!.best).toEqual({ date: '2024-02-01', seconds: 1500, entryId: 2, source: 'run' });
    expect(fivek!.progression.map((m) => m.entryId)).toEqual([3, 2]);
  });
});

describe('records from best efforts (§15)', () => {
  it("take a best effort's elapsed time as it is, not scaled from its run's distance", () => {
    const efforts = [
      // A 17.1 km run whose fastest 5 km took 21:40 beats a 5.1 km run in 25:30 (25:00 at 5 km).
      {
        key: '5k',
        entryId: 1,
        date: '2026-05-11',
        distanceM: 17_100,
        seconds: 1300,
        source: 'best_effort' as const,
        start: 6200,
      },
      {
        key: '5k',
        entryId: 2,
        date: '2026-04-01',
        distanceM: 5100,
        seconds: 1530,
        source: 'run' as const,
        start: null,
      },
    ];
    const [fivek] = computeRecords(efforts);
    expect(fivek!.best).toEqual({ date: '2026-05-11', seconds: 1300, entryId: 1, source: 'best_effort' });
    expect(fivek!.progression.map((m) => [m.entryId, m.seconds])).toEqual([
      [2, 1500],
      [1, 1300],
    ]);
  });

  it('make best efforts of 5 km or more prediction candidates at their distance, ranked as their run', () => {
    const efforts = [
      {
        key: '1k',
        entryId: 1,
        date: '2026-05-11',
        distanceM: 17_100,
        seconds: 200,
        source: 'best_effort' as const,
        start: 0,
      },
      {
        key: '5k',
        entryId: 1,
        date: '2026-05-11',
        distanceM: 17_100,
        seconds: 1200,
        source: 'best_effort' as const,
        start: 10,
      },
      {
        key: '10k',
        entryId: 3,
        date: '2026-05-12',
        distanceM: 10_000,
        seconds: 3000,
        source: 'run' as const,
        start: null,
      },
    ];
    const candidates = effortCandidates(efforts);
    expect(candidates).toEqual([
      { id: 1, date: '2026-05-11', distanceM: 5000, seconds: 1200, kind: 'best_effort', key: '5k' },
    ]);
    const source = predictionSource([{ id: 1, date: '2026-05-11', distanceM: 17_100, seconds: 5400 }, ...candidates]);
    expect(source).toMatchObject({ id: 1, kind: 'best_effort', key: '5k', distanceM: 5000, seconds: 1200 });
    expect(predict(source!).source).toMatchObject({ distance: 5, time: '00:20:00', kind: 'best_effort', key: '5k' });
  });
});

describe('VDOT and predictions', () => {
  it('gives a 5 km in 20:00 a VDOT of 49.8', () => {
    expect(vdot(5000, 1200)).toBeCloseTo(49.806, 3);
  });

  // Daniels' Running Formula, VDOT table (5k, 10k, half, marathon).
  const danielsTable: Record<number, string[]> = {
    40: ['00:24:08', '00:50:03', '01:50:59', '03:49:45'],
    50: ['00:19:57', '00:41:21', '01:31:35', '03:10:49'],
    60: ['00:17:03', '00:35:22', '01:18:09', '02:43:25'],
  };
  it.each(Object.entries(danielsTable))(
    'solves the times of VDOT %s within 0.25% of the published table (a few seconds)',
    (v, times) => {
      [5000, 10_000, 21_097.5, 42_195].forEach((metres, i) => {
        const published = parseDuration(times[i]!)!;
        const solved = vdotSeconds(metres, Number(v));
        expect(Math.abs(solved - published) / published).toBeLessThan(0.0025);
        expect(vdot(metres, solved)).toBeCloseTo(Number(v), 6);
      });
    },
  );

  it('carries a time with Riegel exponent 1.06', () => {
    // 20:00 over 5 km: 1200 x 2^1.06 = 2501.6 s over 10 km.
    expect(riegelSeconds(1200, 5, 10)).toBeCloseTo(1200 * 2 ** 1.06, 9);
    expect(formatDuration(riegelSeconds(1200, 5, 10))).toBe('00:41:42');
  });

  it('chooses the highest VDOT of at least 3 km, ties to the later date then the higher id', () => {
    const runs = [
      { id: 1, date: '2024-01-01', distanceM: 2999, seconds: 400 }, // fast but too short
      { id: 2, date: '2024-01-02', distanceM: 5000, seconds: 1200 },
      { id: 5, date: '2024-01-03', distanceM: 5000, seconds: 1200 },
      { id: 4, date: '2024-01-03', distanceM: 5000, seconds: 1200 },
      { id: 3, date: '2024-01-01', distanceM: 10_000, seconds: 3000 },
    ];
    const source = predictionSource(runs)!;
    expect(source.id).toBe(5);
    const predicted = predict(source);
    expect(predicted.source).toEqual({
      entry_id: 5,
      date: '2024-01-03',
      distance: 5,
      time: '00:20:00',
      vdot: 49.8,
      kind: 'run',
      key: null,
    });
    expect(predicted.races.map((r) => r.key)).toEqual(['5k', '10k', 'half', 'marathon']);
    expect(predicted.races[0]).toEqual({ key: '5k', distance: 5, riegel_time: '00:20:00', vdot_time: '00:20:00' });
    expect(predicted.races[1]!.riegel_time).toBe('00:41:42');
    expect(predictionSource([runs[0]!])).toBeNull();
  });
});

const day = (date: string, effortSeconds: number, unratedSeconds = 0, distanceM = 10_000): RunnerDay => ({
  date,
  runs: 1,
  distanceM,
  seconds: effortSeconds + unratedSeconds,
  effortSeconds,
  unratedSeconds,
  unratedRuns: unratedSeconds > 0 ? 1 : 0,
});

describe('training load', () => {
  it('sums effort x minutes over 7 and 28 days and assumes effort 5 without one', () => {
    // Every day for 28 days: a 60-minute run at effort 6 (load 360), the last one unrated (load 300).
    const date = '2024-05-31';
    const days = Array.from({ length: 28 }, (_, i) =>
      i === 27 ? day(date, 0, 3600) : day(addDays(date, i - 27), 6 * 3600),
    );
    const load = computeLoad(days, date);
    expect(load.acute).toBe(6 * 360 + 300);
    expect(load.chronic).toBe((27 * 360 + 300) / 4);
    expect(load.acwr).toBe(Math.round(((6 * 360 + 300) / ((27 * 360 + 300) / 4)) * 100) / 100);
    expect(load.estimated_runs).toBe(1);
    // Six days of 360 and one of 300: mean 351.43, population sd 20.99, monotony 16.74.
    expect(load.monotony).toBe(16.74);
    // In effort-seconds: S = 147,600, 7 x sum of squares - S^2 = 77,760,000.
    expect(load.strain).toBeCloseTo(2460 * (147_600 / Math.sqrt(77_760_000)), 2);
    // The first run is 27 days before `date`: too soon for any warning (§10).
    expect(load.warnings).toEqual([]);
    // With a run 28 days before, outside every window, the same week warns.
    const settled = computeLoad([day(addDays(date, -28), 0, 600), ...days], date);
    expect(settled.monotony).toBe(16.74);
    expect(settled.warnings).toEqual(['monotony_high']);
  });

  it('warns of nothing while the first run is fewer than 28 days before the date', () => {
    // A new runner's first week: one easy run, then six long hard ones.
    const first = '2024-06-01';
    const days = [
      day(first, 2 * 1800),
      ...Array.from({ length: 6 }, (_, i) => day(addDays(first, i + 1), 9 * 7200 + (i % 2) * 600, 0, 20_000)),
    ];
    const early = computeLoad(days, addDays(first, 6));
    expect(early.acwr).toBeGreaterThan(1.5);
    expect(early.monotony).toBeGreaterThan(2);
    expect(early.warnings).toEqual([]);
    expect(computeLoad(days, addDays(first, 27)).warnings).toEqual([]);
    // From the 28th day after the first run, the same numbers warn.
    const later = [...days.map((d) => ({ ...d, date: addDays(d.date, 22) })), day(first, 0, 60)];
    const settled = computeLoad(later, addDays(first, 28));
    expect(settled.acwr).toBeGreaterThan(1.5);
    expect(settled.monotony).toBeGreaterThan(2);
    expect(settled.warnings).toEqual(expect.arrayContaining(['acwr_high', 'monotony_high']));
  });

  it('has no monotony for a steady week and no ACWR without a chronic load', () => {
    const date = '2024-05-31';
    const steady = Array.from({ length: 7 }, (_, i) => day(addDays(date, -i), 7 * 3000));
    const load = computeLoad(steady, date);
    expect(load.monotony).toBeNull();
    expect(load.strain).toBeNull();
    const empty = computeLoad([], date);
    expect(empty.acwr).toBeNull();
    expect(empty.fitness).toBe(0);
    expect(empty.series).toHaveLength(90);
    expect(empty.weekly).toHaveLength(12);
  });

  it('moves fitness and fatigue by 1/42 and 1/7 of the gap each day from the first run on', () => {
    const date = '2024-01-03';
    const load = computeLoad([day('2024-01-01', 420 * 60), day('2024-01-02', 0, 0)], date);
    // Day 1: load 420 -> fitness 10, fatigue 60; day 2 load 0: 10 x 41/42, 60 x 6/7; day 3: again.
    const fitness = 10 * (41 / 42) ** 2;
    const fatigue = 60 * (6 / 7) ** 2;
    expect(load.fitness).toBe(Math.round(fitness * 100) / 100);
    expect(load.fatigue).toBe(Math.round(fatigue * 100) / 100);
    expect(load.form).toBe(-Math.round((fatigue - fitness) * 100) / 100);
    const before = load.series.filter((d) => d.date < '2024-01-01');
    expect(before.every((d) => d.fitness === 0 && d.fatigue === 0)).toBe(true);
    expect(load.series.at(-1)!.date).toBe(date);
  });

  it('warns when this week is 1.3 x the 4 weeks before and when the last 7 days are 1.5 x the 4-week average', () => {
    // Wednesday 2024-05-29; the 4 weeks before: 10 km each; this week: 14 km by Wednesday.
    const date = '2024-05-29';
    const days = [
      ...[28, 21, 14, 7].map((back) => day(addDays('2024-05-27', -back), 60 * 60, 0, 10_000)),
      day('2024-05-27', 0, 0, 7000),
      day('2024-05-29', 0, 0, 7000),
    ].map((d) => ({ ...d, runs: 1 }));
    const load = computeLoad(days, date);
    expect(load.ramp).toBe(1.4);
    expect(load.weekly.at(-1)).toEqual({ week_start: '2024-05-27', distance: 14, load: 0 });
    expect(load.warnings).toContain('ramp_high');
    expect(computeLoad(days, '2024-05-28').ramp).toBe(0.7);
  });
});

describe('streaks', () => {
  it('counts a current streak that ended yesterday, not one that ended before', () => {
    const dates = ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-10', '2024-01-11'];
    expect(computeStreaks(dates, '2024-01-12')).toMatchObject({ current_days: 2, longest_days: 3 });
    expect(computeStreaks(dates, '2024-01-11').current_days).toBe(2);
    expect(computeStreaks(dates, '2024-01-13').current_days).toBe(0);
  });

  it('counts ISO weeks the same way', () => {
    // Weeks of 2024-01-01 (Mon), 2024-01-08, 2024-01-22: two in a row, a gap, one.
    const dates = ['2024-01-07', '2024-01-08', '2024-01-22'];
    expect(computeStreaks(dates, '2024-01-29')).toMatchObject({ current_weeks: 1, longest_weeks: 2 });
    expect(computeStreaks(dates, '2024-02-05').current_weeks).toBe(0);
    expect(computeStreaks([], '2024-02-05')).toEqual({
      current_days: 0,
      longest_days: 0,
      current_weeks: 0,
      longest_weeks: 0,
    });
  });
});

describe('longest and fastest runs', () => {
  it('breaks ties by the earlier date, then the lower id, and needs 5 km to be fastest', () => {
    const runs = [
      { id: 7, date: '2024-02-01', distanceM: 10_000, seconds: 3000 },
      { id: 3, date: '2024-02-01', distanceM: 10_000, seconds: 2999 },
      { id: 9, date: '2024-01-15', distanceM: 5000, seconds: 1500 }, // same speed as id 7
      { id: 1, date: '2024-01-01', distanceM: 4999, seconds: 900 }, // fastest, too short
    ];
    expect(longestRun(runs)?.id).toBe(3);
    expect(fastestRun(runs)?.id).toBe(3);
    expect(fastestRun(runs.filter((r) => r.id !== 3))?.id).toBe(9);
    expect(fastestRun([runs[3]!])).toBeNull();
  });
});
