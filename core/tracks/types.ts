/**
 * A run's track as the device recorded it (CONTRACT.md §13): columns of samples, laps, pauses.
 * Parsers (server/features/imports/parsers) produce it, the codec (server/features/tracks) stores
 * it, and the maths of core/tracks computes the run page (§14) and best efforts (§15) from it.
 *
 * Columns are plain arrays of one length (the number of samples). A channel the file never
 * records is `null`; a sample without a value in a recorded channel holds NaN there.
 */
export interface Track {
  /** Seconds since the first sample (t[0] = 0), to the millisecond, strictly increasing. */
  t: number[];
  /** Degrees (WGS84) to 1e-6, or null when the track has no positions. */
  lat: number[] | null;
  lon: number[] | null;
  /**
   * Cumulative metres to 1 cm, never decreasing, no NaN (a sample without a recorded
   * distance took the previous one's); null when the track has neither distances nor positions.
   */
  d: number[] | null;
  /** Metres to 0.1. */
  ele: number[] | null;
  /** Beats per minute. */
  hr: number[] | null;
  /** Steps per minute (already doubled from the devices' per-leg cadence). */
  cad: number[] | null;
  laps: TrackLap[];
  /** [from, to] seconds on the same clock as `t`, in order, not overlapping. */
  pauses: [number, number][];
  /** FIT session's total_ascent and total_descent when the file states both, in metres. */
  deviceElevation: { gain: number; loss: number } | null;
}

export interface TrackLap {
  /** Seconds from the first sample. */
  start: number;
  /** Metres. */
  distance: number;
  /** Timer seconds (FIT total_timer_time, TCX TotalTimeSeconds). */
  time: number;
}

/** Most samples a track keeps (§13); a longer one keeps every k-th sample and its last. */
export const MAX_TRACK_SAMPLES = 200_000;
