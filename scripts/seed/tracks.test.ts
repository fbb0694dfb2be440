/**
 * The seed's synthetic tracks look like a watch's: one sample a second of the run's own pace round
 * a loop near the runner's city, every channel in range, pauses as gaps in the clock, 1 km laps
 * that add up; the same seed and run give the same track, and prepareTrack takes it as an import's.
 */
import { describe, expect, it } from 'vitest';
import { analyseTrack } from '../../core/tracks/analyse.js';
import { unpackTrack } from '../../server/features/tracks/prepare.js';
import { MAX_TRACK_SECONDS, packedSyntheticTrack, syntheticTrack, type RunToTrack } from './tracks.js';

const RUN: RunToTrack = {
  id: 41,
  userId: 7,
  timezone: 'Europe/Berlin',
  date: '2025-06-14',
  distanceM: 10_500,
  seconds: 3_150,
};
const BERLIN = { lat: 52.52, lon: 13.405 };

describe('syntheticTrack', () => {
  const { track, start } = syntheticTrack(3, RUN);

  it('records a sample every second of moving time, covering the run exactly', () => {
    const n = track.t.length;
    expect(n).toBe(RUN.seconds + 1);
    const paused = track.pauses.reduce((sum, [from, to]) => sum + (to - from), 0);
    expect(track.t[0]).toBe(0);
    expect(track.t[n - 1]).toBe(RUN.seconds + paused);
    for (let k = 1; k < n; k++) {
      expect(track.t[k]! - track.t[k - 1]!).toBeGreaterThanOrEqual(1);
      expect(track.d![k]!).toBeGreaterThanOrEqual(track.d![k - 1]!);
    }
    expect(track.d![n - 1]).toBeCloseTo(RUN.distanceM, 1);
    // Each pause is the gap between two samples.
    for (const [from, to] of track.pauses) {
      const k = track.t.indexOf(from);
      expect(k).toBeGreaterThan(0);
      expect(track.t[k + 1]).toBe(to + 1);
    }
  });

  it('starts on the run date and stays round a loop near the runner city', () => {
    expect(start.toISOString().slice(0, 10)).toBe(RUN.date);
    const kmFromCentre = (k: number) =>
      Math.hypot(
        (track.lat![k]! - BERLIN.lat) * 111.2,
        (track.lon![k]! - BERLIN.lon) * 111.2 * Math.cos((BERLIN.lat * Math.PI) / 180),
      );
    for (let k = 0; k < track.t.length; k += 60) expect(kmFromCentre(k)).toBeLessThan(15);
    // Positions are as many metres apart as the watch's distance says, GPS noise aside.
    let path = 0;
    for (let k = 60; k < track.t.length; k += 60) {
      path += Math.hypot(
        (track.lat![k]! - track.lat![k - 60]!) * 111_195,
        (track.lon![k]! - track.lon![k - 60]!) * 111_195 * Math.cos((BERLIN.lat * Math.PI) / 180),
      );
    }
    const covered = track.d![Math.floor((track.t.length - 1) / 60) * 60]!;
    expect(path / covered).toBeGreaterThan(0.95);
    expect(path / covered).toBeLessThan(1.05);
  });

  it('keeps every channel in a watch range and at its stored precision', () => {
    for (let k = 0; k < track.t.length; k++) {
      expect(track.hr![k]).toBeGreaterThanOrEqual(70);
      expect(track.hr![k]).toBeLessThanOrEqual(200);
      expect(Number.isInteger(track.hr![k])).toBe(true);
      expect(track.cad![k]! % 2).toBe(0);
      expect(track.cad![k]).toBeGreaterThan(150);
      expect(track.cad![k]).toBeLessThan(200);
      expect(Math.round(track.ele![k]! * 10) / 10).toBe(track.ele![k]);
      expect(Math.round(track.lat![k]! * 1e6) / 1e6).toBe(track.lat![k]);
      expect(Math.round(track.d![k]! * 100) / 100).toBe(track.d![k]);
    }
    const hr = track.hr!;
    // Heart rate climbs from the start and settles.
    expect(hr.slice(-600).reduce((a, b) => a + b, 0) / 600).toBeGreaterThan(hr[0]! + 20);
  });

  it('laps every kilometre; the laps add up to the run', () => {
    expect(track.laps).toHaveLength(Math.ceil(RUN.distanceM / 1000));
    // A lap ends at the first sample past its kilometre: within a second's running of it.
    for (const lap of track.laps.slice(0, -1)) expect(Math.abs(lap.distance - 1000)).toBeLessThan(6);
    const metres = track.laps.reduce((sum, lap) => sum + lap.distance, 0);
    const seconds = track.laps.reduce((sum, lap) => sum + lap.time, 0);
    expect(metres).toBeCloseTo(RUN.distanceM, 0);
    expect(seconds).toBe(RUN.seconds);
  });

  it('is the same for the same seed and run, and differs for another run or seed', () => {
    expect(syntheticTrack(3, RUN)).toEqual({ track, start });
    expect(syntheticTrack(3, { ...RUN, id: 42 }).track.lat).not.toEqual(track.lat);
    expect(syntheticTrack(4, RUN).track.lat).not.toEqual(track.lat);
  });

  it('keeps the first three hours of a longer run, at its pace', () => {
    const long = { ...RUN, distanceM: 42_195, seconds: 4 * 3600 };
    const capped = syntheticTrack(3, long).track;
    expect(capped.t.length).toBe(MAX_TRACK_SECONDS + 1);
    expect(capped.d!.at(-1)).toBeCloseTo((42_195 * 3) / 4, 1);
  });

  it('gives runs of one runner routes that repeat: most of them start at the same place', () => {
    const starts = Array.from({ length: 12 }, (_, i) => {
      const { lat, lon } = syntheticTrack(3, { ...RUN, id: 100 + i }).track;
      return [lat![0]!, lon![0]!];
    });
    for (const [lat, lon] of starts) {
      expect(Math.abs(lat! - starts[0]![0]!) * 111_195).toBeLessThan(20);
      expect(Math.abs(lon! - starts[0]![1]!) * 111_195 * 0.61).toBeLessThan(20);
    }
  });

  it('is prepared as an import prepares a file: every section of the run page is there', () => {
    const { prepared, original } = unpackTrack(packedSyntheticTrack(3, RUN));
    expect(original).toBeNull();
    expect(prepared.samples).toBe(RUN.seconds + 1);
    expect(prepared.hasDistances).toBe(true);
    expect(prepared.efforts.map((e) => e.key)).toEqual(['1k', '1mi', '5k', '10k']);
    expect(prepared.mapRoute).not.toBeNull();
    const analysis = analyseTrack(track);
    expect(analysis.has).toEqual({ distance: true, position: true, elevation: true, heart_rate: true, cadence: true });
    expect(prepared.entry).toEqual(analysis.entry);
    expect(analysis.splits.km).toHaveLength(11);
    expect(analysis.elevation!.gain).toBeGreaterThan(0);
  });
});
