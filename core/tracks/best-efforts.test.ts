import { describe, expect, it } from 'vitest';
import { bestEffortsOf, isJump, piecesOf } from './best-efforts.js';
import { makeTrack } from './test-tracks.js';
import { axesOf, prepareTrack } from './timing.js';

const effortsOf = (t: number[], d: number[], pauses: [number, number][] = []) =>
  bestEffortsOf(prepareTrack(makeTrack({ t, d, pauses })));

describe('best efforts', () => {
  // 3 km: a fast first kilometre, 100 s standing at 1,000 m, a slower stretch, a fast fourth stretch.
  const t = [0, 200, 400, 500, 700, 1000];
  const d = [0, 1000, 1000, 1500, 2500, 3000];

  it('finds the fastest stretch of exactly D, ties to the smallest start', () => {
    // 1 km: ending at sample 1 (start 0) and at sample 4 (start 1,500) both take 200 s.
    // 1 mile: ending at sample 4 starts at 890.656 m (τ = 178.1312 s), ending at sample 5 starts at
    // 1,390.656 m (τ = 400 + 390.656/500 x 100 = 478.1312 s, after standing still): 521.8688 s both.
    expect(effortsOf(t, d)).toEqual([
      { key: '1k', distance: 1, time: '00:03:20', pace: 3.33, start: 0, seconds: 200 },
      { key: '1mi', distance: 1.609344, time: '00:08:42', pace: 5.41, start: 891, seconds: 521.869 },
    ]);
  });

  it('counts elapsed time: pauses stay in', () => {
    expect(effortsOf(t, d, [[100, 150]])[0]!.seconds).toBe(200);
  });

  it('reports whole seconds, halves up, from the time to the millisecond', () => {
    expect(effortsOf([0, 299.5], [0, 1000])).toEqual([
      { key: '1k', distance: 1, time: '00:05:00', pace: 5, start: 0, seconds: 299.5 },
    ]);
    expect(effortsOf([0, 299.499], [0, 1000])[0]!.time).toBe('00:04:59');
  });

  it('measures start from d[0] and stays within the samples that reach D beyond the first', () => {
    const efforts = effortsOf([0, 100, 400, 450], [2000, 2400, 3400, 3500]);
    // Ending at 3,400 m (x = 2,400, τ = 100): 300 s; at 3,500 m (x = 2,500, τ = 130): 320 s.
    expect(efforts).toEqual([{ key: '1k', distance: 1, time: '00:05:00', pace: 5, start: 400, seconds: 300 }]);
  });

  it('never spans a GPS jump, and has no row for a distance no piece covers', () => {
    // 600 m, a jump of 100 m in 1 s, 600 m: 1,300 m in all but no piece of 1 km.
    expect(effortsOf([0, 100, 101, 300], [0, 600, 700, 1300])).toEqual([]);
    // Without the jump (100 m in 10 s), the kilometre ending at 1,300 m starts at 300 m.
    expect(effortsOf([0, 100, 110, 300], [0, 600, 700, 1300]).map((e) => e.seconds)).toEqual([250]);
  });

  it('finds a distance inside the piece after a jump', () => {
    const efforts = effortsOf([0, 10, 11, 311], [0, 50, 5000, 6000]);
    expect(efforts.map((e) => [e.key, e.seconds, e.start])).toEqual([['1k', 300, 5000]]);
  });

  it('gives nothing without distances or with one sample', () => {
    expect(bestEffortsOf(prepareTrack(makeTrack({ t: [0, 600] })))).toEqual([]);
    expect(effortsOf([0], [0])).toEqual([]);
  });

  it('reports every standard distance a long run covers, shortest first', () => {
    const t = Array.from({ length: 1001 }, (_, i) => i * 20);
    const d = t.map((seconds) => seconds * 3);
    const efforts = effortsOf(t, d);
    expect(efforts.map((e) => e.key)).toEqual([
      '1k',
      '1mi',
      '5k',
      '10k',
      '15k',
      '10mi',
      'half',
      '30k',
      'marathon',
      '50k',
    ]);
    // At an even 3 m/s every stretch ties; the first sample 42,195 m out is at 42,240 m.
    const marathon = efforts.find((e) => e.key === 'marathon')!;
    expect(marathon).toEqual({
      key: 'marathon',
      distance: 42.195,
      time: '03:54:25',
      pace: 5.56,
      start: 45,
      seconds: 14065,
    });
  });
});

describe('pieces', () => {
  it('splits at steps faster than 50 km/h, exactly 50 km/h not', () => {
    expect(isJump(125_000, 9000)).toBe(false);
    expect(isJump(125_001, 9000)).toBe(true);
    const { ms, mm } = axesOf(makeTrack({ t: [0, 9, 18, 19, 20], d: [0, 125, 250.01, 260, 261] }));
    expect(piecesOf(ms, mm!)).toEqual([
      [0, 1],
      [2, 4],
    ]);
  });
});
