/**
 * A segment on a watch's file: the FIT parser's track of a generated watch run (GPS noise of a metre
 * or two, d the watch's own distance, a pause), with a segment marked on it, matches that same run.
 */
import { describe, expect, it } from 'vitest';
import { parseFit } from '../../features/imports/parsers/fit.js';
import { realisticFit } from '../imports/track-fixtures.js';
import { axesOf, PauseTimeline, sampleAtDistance, tauMs, timerMs } from '../../../core/tracks/timing.js';
import type { Track } from '../../../core/tracks/types.js';
import { segmentPath } from '../../../core/routes/geometry.js';
import { prepareSegment, prepareSegmentRun, segmentEfforts } from '../../../core/routes/segments.js';

function trackOf(bytes: Uint8Array): Track {
  const row = parseFit('run.fit', bytes).rows[0]!;
  if (!('run' in row) || !row.run.track) throw new Error('the generated FIT file has no track');
  return row.run.track;
}

/** The track's timer time between two of its distances (counted from d[0]), by τ (§14), in seconds. */
function timerSecondsBetween(track: Track, startM: number, endM: number): number {
  const axes = axesOf(track);
  const mm = axes.mm!;
  const at = (m: number) => {
    const x = Math.round((track.d![0]! + m) * 1000);
    return tauMs({ ms: axes.ms, mm }, x, sampleAtDistance(mm, x));
  };
  return timerMs(new PauseTimeline(track.pauses), at(startM), at(endM)) / 1000;
}

describe('a segment marked on a watch file', () => {
  it('matches its own run once, timed as the track between those distances (within 1 s)', () => {
    const track = trackOf(realisticFit(1800, { seed: 5, pause: { at: 900, seconds: 75 } }));
    expect(track.pauses).toHaveLength(1);
    for (const [startM, endM] of [
      [1000, 3000],
      [2500, 4200],
    ] as const) {
      const segment = prepareSegment(segmentPath(track, startM, endM)!);
      const efforts = segmentEfforts(segment, prepareSegmentRun(track)!);
      expect(efforts).toHaveLength(1);
      expect(Math.abs(efforts[0]!.seconds - timerSecondsBetween(track, startM, endM))).toBeLessThanOrEqual(1);
    }
  });
});
