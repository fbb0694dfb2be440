/**
 * How the track's sections write numbers. The API speaks metres, seconds and min/km; the runner
 * reads their unit and pace format through a `TrackDisplay`, which the run page hands down from the
 * signed-in runner's preferences.
 */
import { decimal, formatNumber } from '../../../../core/format.js';
import { numberLocale } from '../../../../core/number-locale.js';
import { formatDuration, paceMinPerKm, parseDuration } from '../../../../core/time.js';
import { distanceIn, elevationIn, paceIn, type Units } from '../../../../core/units.js';
import { t } from '../../../i18n/runtime';

/** The runner's unit, its labels, and paces in their format. */
export interface TrackDisplay {
  units: Units;
  /**
   * The units as the language writes them (`useDisplay().labels`): `km`/`mi`, what a pace is
   * written after (`min/km`, `/mi`, ...), an elevation's `m`/`ft` and a heart rate's `bpm`.
   */
  labels: { distance: string; pace: string; elevation: string; heartRate: string };
  /** A pace given in min/km, in the unit and the runner's format, without its label; "—" for none. */
  formatPace(minPerKm: number | null | undefined): string;
}

/** Metres as a distance in the runner's unit, unrounded (chart axes). */
export function metresIn(metres: number, units: Units): number {
  return distanceIn(metres / 1000, units);
}

/** Metres in the runner's unit, two decimals: "1.00", "0.62". */
export function formatMetres(metres: number, units: Units): string {
  return formatNumber(metresIn(metres, units));
}

/** Seconds as `HH:MM:SS`, as every time of the app is written. */
export function formatSeconds(seconds: number): string {
  return formatDuration(seconds);
}

/** min/km of `metres` run in `seconds`; null when there is no distance to divide by. */
export function paceOf(metres: number, seconds: number): number | null {
  return metres > 0 ? paceMinPerKm(metres / 1000, seconds) : null;
}

/** A pace in minutes per the runner's unit back in min/km (the inverse of `paceIn`, which is linear). */
export function paceToMinPerKm(pace: number, units: Units): number {
  return pace / paceIn(1, units);
}

/** A signed change in whole metres, or feet for a runner in miles, without its unit: "+12", "−3", "0". */
export function formatElevationChange(metres: number, units: Units): string {
  const whole = Math.round(elevationIn(metres, units));
  if (whole === 0) return '0';
  return `${whole > 0 ? '+' : '−'}${Math.abs(whole)}`;
}

/**
 * A climb or a descent in whole metres, or feet for a runner in miles: "303 m", "1,378 ft" (English
 * groups digits; the other languages do not, §19), written after with `unit` (the language's label
 * of the elevation's unit, `useDisplay().labels.elevation`). The component showing it has called `useT(run)`.
 */
export function formatElevation(metres: number, units: Units, unit: string): string {
  const whole = Math.round(elevationIn(metres, units));
  const value = numberLocale.decimalSeparator === '.' ? whole.toLocaleString('en') : decimal(whole, 0);
  return t('run.elevation.amount', { value, unit });
}

/** A run's own numbers, as its page's header shows them: km and `HH:MM:SS`. */
export interface RunNumbers {
  distance: number;
  time: string;
}

/**
 * The totals under a table of stretches (splits, laps): the run's own numbers, as its page's header
 * shows them, where the stretches add up to them within 10 m or 0.5% and 5 s or 0.5% (a watch's
 * laps and a track's splits each sum their own rounded pieces: 47:10 and 47:13 under a header of
 * 47:12 read as three answers); else, or without the run's numbers, the stretches' own sums.
 */
export function agreedTotals(
  run: RunNumbers | undefined,
  summed: { metres: number; seconds: number },
): { metres: number; seconds: number } {
  if (!run) return summed;
  const metres = run.distance * 1000;
  const seconds = parseDuration(run.time) ?? 0;
  const close = (a: number, b: number, floor: number) => Math.abs(a - b) <= Math.max(floor, b * 0.005);
  return close(summed.metres, metres, 10) && close(summed.seconds, seconds, 5) ? { metres, seconds } : summed;
}

/**
 * How much of a run its track leaves out: the run's distance and time beyond what the track's
 * splits cover (a GPX file's points without times count in the run's distance, §9, but not in the
 * track's samples, §13). Null when the track covers the run, within 10 m or 0.5% of it.
 */
export function uncoveredPart(
  run: RunNumbers,
  covered: { metres: number; seconds: number },
): { runMetres: number; runSeconds: number; metres: number; seconds: number } | null {
  const runMetres = run.distance * 1000;
  const runSeconds = parseDuration(run.time) ?? 0;
  const metres = runMetres - covered.metres;
  if (metres <= Math.max(10, runMetres * 0.005)) return null;
  return { runMetres, runSeconds, metres, seconds: Math.max(0, runSeconds - covered.seconds) };
}
