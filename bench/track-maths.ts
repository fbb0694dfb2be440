/**
 * npx tsx bench/track-maths.ts
 *
 * Times analyseTrack (core/tracks/analyse.ts) on synthetic tracks recorded every second (position,
 * elevation, heart rate, cadence, two pauses) and prints milliseconds per track and per hour of
 * track (CPU time), and the size of the analysis as JSON. Imports must store 25+ one-hour files a second in all (CONTRACT.md §17), so the maths of
 * one hour should take well under 10 ms. No assertion: the machine is shared, read the numbers.
 */
import { analyseTrack } from '../core/tracks/analyse.js';
import { gpxChunks } from '../core/tracks/gpx.js';
import type { Track } from '../core/tracks/types.js';

/** A deterministic run around a city: ~3 m/s, a gently wandering heading, hills, two pauses. */
function syntheticTrack(hours: number): Track {
  const n = hours * 3600;
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const track: Track = {
    t: [],
    lat: [],
    lon: [],
    d: [],
    ele: [],
    hr: [],
    cad: [],
    laps: [],
    pauses: [
      [1200.5, 1260.5],
      [5400, 5430],
    ],
    deviceElevation: null,
  };
  let [lat, lon, heading, distance, elevation] = [52.37, 4.89, 0, 0, 10];
  for (let i = 0; i < n; i++) {
    const step = 2.8 + 0.4 * random();
    heading += 0.05 * random();
    lat += (step * Math.cos(heading)) / 111_195;
    lon += (step * Math.sin(heading)) / (111_195 * Math.cos((lat * Math.PI) / 180));
    distance += step;
    elevation += 0.3 * random() + 0.2 * Math.sin(i / 300);
    track.t.push(i);
    track.lat!.push(Math.round(lat * 1e6) / 1e6);
    track.lon!.push(Math.round(lon * 1e6) / 1e6);
    track.d!.push(Math.round(distance * 100) / 100);
    track.ele!.push(Math.round(elevation * 10) / 10);
    track.hr!.push(Math.round(150 + 10 * Math.sin(i / 600) + 3 * random()));
    track.cad!.push(Math.round(170 + 4 * random()));
  }
  return track;
}

/** CPU milliseconds per call (user + system of this process: steadier than the wall clock on a shared machine). */
function msPerRun(work: () => unknown, minimumMs = 1000): number {
  for (let i = 0; i < 20; i++) work(); // warm-up: the first calls compile
  let runs = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  while (performance.now() - started < minimumMs) {
    work();
    runs++;
  }
  const cpu = process.cpuUsage(cpuBefore);
  return (cpu.user + cpu.system) / 1000 / runs;
}

for (const hours of [1, 3]) {
  const track = syntheticTrack(hours);
  const analysis = msPerRun(() => analyseTrack(track));
  const gpx = msPerRun(() => {
    let bytes = 0;
    for (const chunk of gpxChunks(track, { name: 'Bench', startMs: Date.UTC(2026, 0, 1) })) bytes += chunk.length;
    return bytes;
  });
  // A yardstick run in the same moment, so that a busy machine shows in both: writing the track's
  // samples as JSON, one pass over the same columns.
  const yardstick = msPerRun(() => JSON.stringify(track));
  const kilobytes = JSON.stringify(analyseTrack(track)).length / 1024;
  console.log(
    `${hours} h at 1 Hz (${track.t.length} samples): analyseTrack ${analysis.toFixed(2)} ms ` +
      `(${(analysis / hours).toFixed(2)} ms per hour, ${(analysis / yardstick).toFixed(2)} x JSON.stringify of the ` +
      `samples, ${kilobytes.toFixed(1)} KB of JSON); GPX ${gpx.toFixed(2)} ms`,
  );
}
