/**
 * Heart rate on the run page (CONTRACT.md §14) and the effort estimated from it (§15).
 *
 * Zones depend on `max_used`, which follows the runner's profile and so changes after the track is
 * stored. The work is therefore in two steps: `heartRateSummary`, once per track, keeps the weight
 * (milliseconds) of each distinct heart-rate value and the highest sample (a device records whole
 * bpm, so a few hundred pairs at most); `heartRateSection` and `estimatedEffort` then take a
 * summary and a `max_used` and cost a few hundred additions.
 */
import { divideRounded } from '../insights.js';
import { hasHeartRate, wholeMean, type PreparedTrack } from './timing.js';

/** Zones 1-5 start at these percentages of `max_used`. */
export const ZONE_PERCENTS = [50, 60, 70, 80, 90] as const;

/** §15: the weight of a second below the zones and in zones 1-5. */
export const EFFORT_WEIGHTS = [1, 2, 3, 5, 7, 9] as const;

/** `max_used` from the runner's tracks when the profile has none: their highest sample, at most 220. */
export const OBSERVED_MAX_CAP = 220;

export interface HeartRateSummary {
  /** The highest sample, bpm (samples that weigh nothing included). */
  max: number;
  /** [bpm, weight in ms] for each heart-rate value that weighs something, bpm ascending. */
  weights: [number, number][];
}

export interface HeartRateZone {
  zone: number;
  from_bpm: number;
  /** The next zone's from_bpm - 1; null for zone 5. */
  to_bpm: number | null;
  seconds: number;
}

export type MaxSource = 'profile' | 'observed';

export interface HeartRateSection {
  /** Weighted mean, whole bpm; null when no sample weighs anything. */
  avg: number | null;
  /** Highest sample, whole bpm. */
  max: number;
  max_used: number;
  max_source: MaxSource;
  zones: HeartRateZone[];
  below_zones: number;
  /** Edwards: minutes in each zone times the zone's number, 1 decimal. */
  trimp: number;
}

/** The summary of a track's heart rate, or null when no sample has one. */
export function heartRateSummary(prepared: PreparedTrack): HeartRateSummary | null {
  const { track, weightsMs } = prepared;
  if (!track.hr) return null;
  let max = -Infinity;
  const byValue = new Map<number, number>();
  track.hr.forEach((bpm, i) => {
    if (!hasHeartRate(bpm)) return;
    max = Math.max(max, bpm);
    const w = weightsMs[i]!;
    if (w > 0) byValue.set(bpm, (byValue.get(bpm) ?? 0) + w);
  });
  if (max === -Infinity) return null;
  return { max, weights: [...byValue].sort((a, b) => a[0] - b[0]) };
}

/** Total weight of a summary, in milliseconds. */
export function summaryWeightMs(summary: HeartRateSummary): number {
  return summary.weights.reduce((total, [, ms]) => total + ms, 0);
}

/** The weighted mean heart rate, whole bpm, or null when nothing weighs. */
export function averageHeartRate(summary: HeartRateSummary): number | null {
  return wholeMean({
    sum: summary.weights.reduce((total, [bpm, ms]) => total + bpm * ms, 0),
    weightMs: summaryWeightMs(summary),
  });
}

/**
 * The zone of a heart rate: z (1-5) when 100 x hr >= p_z x max_used and not in zone z + 1, 0 below
 * zone 1. Integers on both sides for whole bpm, so the comparison is exact.
 */
export function zoneOf(bpm: number, maxUsed: number): number {
  let zone = 0;
  ZONE_PERCENTS.forEach((percent, k) => {
    if (100 * bpm >= percent * maxUsed) zone = k + 1;
  });
  return zone;
}

/** Milliseconds below the zones (index 0) and in zones 1-5. */
function msPerZone(summary: HeartRateSummary, maxUsed: number): number[] {
  const perZone = [0, 0, 0, 0, 0, 0];
  for (const [bpm, ms] of summary.weights) perZone[zoneOf(bpm, maxUsed)]! += ms;
  return perZone;
}

function requireMaxUsed(maxUsed: number): void {
  if (!Number.isInteger(maxUsed) || maxUsed <= 0)
    throw new RangeError(`max_used must be a positive whole bpm: ${maxUsed}`);
}

/** `max_used` when the profile has no maximum: the highest sample of the runner's tracks, whole, at most 220. */
export function observedMaxUsed(highestSample: number): number {
  return Math.min(OBSERVED_MAX_CAP, Math.round(highestSample));
}

/** The `heart_rate` object of GET /entry/{id}/track for the runner's current `max_used`. */
export function heartRateSection(summary: HeartRateSummary, maxUsed: number, maxSource: MaxSource): HeartRateSection {
  requireMaxUsed(maxUsed);
  const perZone = msPerZone(summary, maxUsed);
  const fromBpm = ZONE_PERCENTS.map((percent) => Math.ceil((percent * maxUsed) / 100));
  const zones = fromBpm.map((from, k) => ({
    zone: k + 1,
    from_bpm: from,
    to_bpm: k + 1 < fromBpm.length ? fromBpm[k + 1]! - 1 : null,
    seconds: perZone[k + 1]! / 1000,
  }));
  const msTimesZone = perZone.reduce((total, ms, zone) => total + ms * zone, 0);
  return {
    avg: averageHeartRate(summary),
    max: Math.round(summary.max),
    max_used: maxUsed,
    max_source: maxSource,
    zones,
    below_zones: perZone[0]! / 1000,
    // Σ minutes x zone to 1 decimal = round(Σ ms x zone / 6,000) / 10, exactly.
    trimp: divideRounded(msTimesZone, 6000) / 10,
  };
}

/**
 * §15's effort estimated from heart rate: max(1, round(Σ seconds x w / total weight)), w = 1 below
 * the zones and 2, 3, 5, 7, 9 in zones 1-5; null when no sample weighs anything.
 */
export function estimatedEffort(summary: HeartRateSummary, maxUsed: number): number | null {
  requireMaxUsed(maxUsed);
  const total = summaryWeightMs(summary);
  if (total <= 0) return null;
  const weighted = msPerZone(summary, maxUsed).reduce((sum, ms, zone) => sum + ms * EFFORT_WEIGHTS[zone]!, 0);
  return Math.max(1, divideRounded(weighted, total));
}
