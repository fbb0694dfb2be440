import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyseTrack } from './analyse.js';
import { heartRateSection, heartRateSummary } from './heart-rate.js';
import { RoutesEnvelopeSchema, RunTrackEnvelopeSchema, runTrackOf, type RunTrack } from './schemas.js';
import { arbitraryTrack, loopTrack } from './test-tracks.js';
import { prepareTrack } from './timing.js';
import type { Track } from './types.js';

function answerOf(track: Track, entryId = 5): RunTrack {
  const analysis = analyseTrack(track);
  const summary = heartRateSummary(prepareTrack(track));
  return runTrackOf(entryId, analysis, summary && heartRateSection(summary, 190, 'profile'));
}

describe('the track answer (§14)', () => {
  it('keeps every field of a full track through the schema, and only the contract’s fields', () => {
    const track = loopTrack({
      seconds: 900,
      pause: { after: 300, length: 60 },
      laps: [
        { start: 0, distance: 1500, time: 480 },
        { start: 540, distance: 1380, time: 420 },
      ],
    });
    const answer = answerOf(track);
    expect(RunTrackEnvelopeSchema.parse({ track: answer }).track).toEqual(answer);
    expect(Object.keys(answer).sort()).toEqual(
      [
        'entry_id',
        'samples',
        'has',
        'bounds',
        'route',
        'series',
        'pauses',
        'laps',
        'splits',
        'best_efforts',
        'elevation',
        'heart_rate',
      ].sort(),
    );
    // Records use an effort's exact seconds; the page shows only the contract's five fields.
    expect(Object.keys(answer.best_efforts[0]!).sort()).toEqual(['distance', 'key', 'pace', 'start', 'time']);
    expect(answer.heart_rate?.zones).toHaveLength(5);
    expect(answer.laps.map((lap) => lap.index)).toEqual([1, 2]);
  });

  it('accepts the nulls of a track without positions, elevation or heart rate', () => {
    const answer = answerOf(loopTrack({ seconds: 120, positions: false, elevation: false, heartRate: false }));
    expect(answer).toMatchObject({ bounds: null, route: null, elevation: null, heart_rate: null });
    expect(answer.series).toMatchObject({ elevation: null, heart_rate: null, cadence: null });
    expect(RunTrackEnvelopeSchema.parse({ track: answer }).track).toEqual(answer);
  });

  it('describes any track the maths can analyse', () => {
    fc.assert(
      fc.property(arbitraryTrack(25), (track) => {
        const answer = answerOf(track);
        expect(RunTrackEnvelopeSchema.parse({ track: answer }).track).toEqual(answer);
      }),
      { numRuns: 40 },
    );
  });

  it('refuses an answer that breaks the contract', () => {
    const answer = answerOf(loopTrack({ seconds: 60 }));
    expect(RunTrackEnvelopeSchema.safeParse({ track: { ...answer, bounds: [[1, 2]] } }).success).toBe(false);
    expect(RunTrackEnvelopeSchema.safeParse({ track: { ...answer, splits: { km: [] } } }).success).toBe(false);
    const { heart_rate: _left, ...withoutHeartRate } = answer;
    expect(RunTrackEnvelopeSchema.safeParse({ track: withoutHeartRate }).success).toBe(false);
  });
});

describe('the routes answer (§16)', () => {
  it('accepts runs with their polylines and an empty map', () => {
    const routes = {
      bounds: [
        [51.49, -0.13],
        [51.51, -0.11],
      ],
      runs: [{ entry_id: 3, date: '2024-05-01', distance: 5.012, polyline: '_p~iF~ps|U_ulLnnqC' }],
    };
    expect(RoutesEnvelopeSchema.parse({ routes }).routes).toEqual(routes);
    expect(RoutesEnvelopeSchema.parse({ routes: { bounds: null, runs: [] } }).routes.runs).toEqual([]);
    expect(RoutesEnvelopeSchema.safeParse({ routes: { bounds: null, runs: [{ entry_id: 3 }] } }).success).toBe(false);
  });
});
