import { formatNumber } from '../../core/format.js';
import { analyseTrack } from '../../core/tracks/analyse.js';
import { heartRateSection, heartRateSummary } from '../../core/tracks/heart-rate.js';
import { runTrackOf, type RoutesMap, type RunTrack } from '../../core/tracks/schemas.js';
import { loopTrack } from '../../core/tracks/test-tracks.js';
import { prepareTrack } from '../../core/tracks/timing.js';
import type { Track } from '../../core/tracks/types.js';
import { elevationLabel, paceIn, unitLabels, type Units } from '../../core/units.js';
import type { RoutesDisplay } from '../features/tracks/components/every-route';

/** Minutes as `m:ss`, the clock format of paces. */
function formatClock(minutes: number): string {
  const seconds = Math.round(minutes * 60);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** What the run page hands the track's sections: the unit, and paces as decimals or as a clock. */
export function trackDisplay(units: Units, paceFormat: 'decimal' | 'clock' = 'decimal'): RoutesDisplay {
  const labels = unitLabels(units);
  return {
    units,
    labels: {
      distance: labels.distance,
      pace: paceFormat === 'clock' ? labels.pace.replace(/^min/, '') : labels.pace,
      elevation: elevationLabel(units),
      heartRate: 'bpm',
    },
    formatPace: (minPerKm) =>
      typeof minPerKm !== 'number'
        ? '—'
        : paceFormat === 'clock'
          ? formatClock(paceIn(minPerKm, units))
          : formatNumber(paceIn(minPerKm, units)),
    formatDate: (ymd) => `${ymd.slice(8, 10)}/${ymd.slice(5, 7)}/${ymd.slice(0, 4)}`,
  };
}

/**
 * A small answer of GET /entry/{id}/track, written by hand so that the tables' rows can be
 * computed by hand: 2.5 km in 770.4 s of timer time, three km splits and two mile splits.
 */
export function smallTrack(overrides: Partial<RunTrack> = {}): RunTrack {
  return {
    entry_id: 7,
    samples: 771,
    has: { distance: true, position: true, elevation: true, heart_rate: true, cadence: false },
    bounds: [
      [51.5, -0.12],
      [51.505, -0.11],
    ],
    route: '_riyH~lVoKg^wQg^',
    series: {
      distance: [0, 1250, 2500],
      time: [0, 380, 771],
      elevation: [30, 35, 32],
      heart_rate: [130, 148, 160],
      cadence: null,
    },
    pauses: [],
    laps: [
      { index: 1, start: 0, distance: 1500, time: 450 },
      { index: 2, start: 460, distance: 1000.5, time: 320.2 },
    ],
    splits: {
      km: [
        { index: 1, distance: 1000, time: 300, elevation_change: 5.2, heart_rate: 140 },
        { index: 2, distance: 1000, time: 310.4, elevation_change: -3.1, heart_rate: 150 },
        { index: 3, distance: 500, time: 160, elevation_change: 0, heart_rate: 155 },
      ],
      mi: [
        { index: 1, distance: 1609.3, time: 500, elevation_change: 2, heart_rate: 145 },
        { index: 2, distance: 890.7, time: 270.4, elevation_change: 0.1, heart_rate: 153 },
      ],
    },
    best_efforts: [
      { key: '1k', distance: 1, time: '00:04:50', pace: 4.83, start: 1200 },
      { key: '1mi', distance: 1.609344, time: '00:07:59', pace: 4.96, start: 420 },
    ],
    elevation: { gain: 14, loss: 12, source: 'track' },
    heart_rate: {
      avg: 148,
      max: 178,
      max_used: 190,
      max_source: 'profile',
      zones: [
        { zone: 1, from_bpm: 95, to_bpm: 113, seconds: 60 },
        { zone: 2, from_bpm: 114, to_bpm: 132, seconds: 120 },
        { zone: 3, from_bpm: 133, to_bpm: 151, seconds: 300 },
        { zone: 4, from_bpm: 152, to_bpm: 170, seconds: 240 },
        { zone: 5, from_bpm: 171, to_bpm: null, seconds: 30 },
      ],
      below_zones: 20,
      trimp: 38.5,
    },
    ...overrides,
  };
}

/** The answer the server gives for a track, from the same maths (core/tracks). */
export function analysedTrack(track: Track = loopTrack(), entryId = 7, maxUsed = 190): RunTrack {
  const summary = heartRateSummary(prepareTrack(track));
  return runTrackOf(entryId, analyseTrack(track), summary && heartRateSection(summary, maxUsed, 'profile'));
}

/** GET /insights/routes of runs on the given dates, each a short line of its own. */
export function routesOf(dates: string[]): RoutesMap {
  return {
    bounds: dates.length
      ? [
          [51.5, -0.12],
          [51.52, -0.1],
        ]
      : null,
    runs: dates.map((date, k) => ({ entry_id: 100 + k, date, distance: 5 + k / 2, polyline: 'opkyH~lVg^o}@' })),
  };
}
