/**
 * A run's elevation gain and loss (CONTRACT.md §14): the device's totals when the file states both,
 * else counted from the samples with a 3 m threshold, which ignores the barometer's and the GPS's
 * small wanderings.
 */
import { divideRounded } from '../insights.js';
import { hasElevation } from './timing.js';
import type { Track } from './types.js';

export interface Elevation {
  /** Whole metres. */
  gain: number;
  loss: number;
  source: 'device' | 'track';
}

/** The threshold of §14, in decimetres. */
export const ELEVATION_THRESHOLD_DM = 30;

/** The elevation of a track, or null when it has neither the device's totals nor elevation samples. */
export function elevationOf(track: Pick<Track, 'ele' | 'deviceElevation'>): Elevation | null {
  if (track.deviceElevation) {
    return {
      gain: Math.round(track.deviceElevation.gain),
      loss: Math.round(track.deviceElevation.loss),
      source: 'device',
    };
  }
  const counted = elevationFromSamples(track.ele);
  return counted && { ...counted, source: 'track' };
}

/**
 * Gain and loss in whole metres from the samples, in whole decimetres: r is the first elevation; a
 * sample at least 3 m above r adds its rise to the gain and becomes r, one at least 3 m below adds
 * its drop to the loss and becomes r. Null without elevation samples.
 */
export function elevationFromSamples(ele: readonly number[] | null): { gain: number; loss: number } | null {
  if (!ele) return null;
  let reference: number | null = null;
  let gainDm = 0;
  let lossDm = 0;
  for (const metres of ele) {
    if (!hasElevation(metres)) continue;
    const dm = Math.round(metres * 10);
    if (reference === null) {
      reference = dm;
    } else if (dm >= reference + ELEVATION_THRESHOLD_DM) {
      gainDm += dm - reference;
      reference = dm;
    } else if (dm <= reference - ELEVATION_THRESHOLD_DM) {
      lossDm += reference - dm;
      reference = dm;
    }
  }
  if (reference === null) return null;
  return { gain: divideRounded(gainDm, 10), loss: divideRounded(lossDm, 10) };
}
