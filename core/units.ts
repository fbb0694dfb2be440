/**
 * Kilometres or miles (CONTRACT.md §11): the API always speaks kilometres (and min/km, km/h);
 * the web app shows and accepts the runner's unit. Every conversion happens here.
 *
 * Rounding never drifts: a form shows a stored distance with `distanceInputValue` and sends
 * back `distanceFromInput(text, units, storedKm)`, which is the stored km itself while the
 * text is still the one shown (10 km shown as 6.21 mi and saved unchanged stays 10 km).
 */
// Defined with the other preferences, which the first screen checks without loading these conversions.
import { UNITS, type Units } from './preferences.js';

export { UNITS, type Units };

export const KM_PER_MILE = 1.609344;

export function isUnits(value: unknown): value is Units {
  return value === 'km' || value === 'mi';
}

/** A distance in km, in the given unit (unrounded). */
export function distanceIn(km: number, units: Units): number {
  return units === 'mi' ? km / KM_PER_MILE : km;
}

/** A distance typed in the given unit, in km rounded to the API's 3 decimals. */
export function distanceToKm(value: number, units: Units): number {
  const km = units === 'mi' ? value * KM_PER_MILE : value;
  return Math.round(km * 1000) / 1000;
}

/** A pace in min/km, in minutes per unit. */
export function paceIn(minPerKm: number, units: Units): number {
  return units === 'mi' ? minPerKm * KM_PER_MILE : minPerKm;
}

/** A speed in km/h, in units per hour. */
export function speedIn(kmh: number, units: Units): number {
  return units === 'mi' ? kmh / KM_PER_MILE : kmh;
}

/** Metres of climb or height as a runner reads them: feet in miles, metres in kilometres (unrounded). */
export function elevationIn(metres: number, units: Units): number {
  return units === 'mi' ? metres / 0.3048 : metres;
}

/** What an elevation is written after: `m`, or `ft` for a runner in miles. */
export function elevationLabel(units: Units): 'm' | 'ft' {
  return units === 'mi' ? 'ft' : 'm';
}

/** Labels of each unit: `km`/`mi`, `min/km`/`min/mi`, `km/h`/`mph`. */
export function unitLabels(units: Units): { distance: string; pace: string; speed: string } {
  return units === 'mi'
    ? { distance: 'mi', pace: 'min/mi', speed: 'mph' }
    : { distance: 'km', pace: 'min/km', speed: 'km/h' };
}

/**
 * The text a distance field starts with: kilometres as stored (up to 3 decimals), miles with
 * at most 2 decimals, without trailing zeros ("42.195", "6.21", "5").
 */
export function distanceInputValue(km: number, units: Units): string {
  if (units === 'km') return String(Math.round(km * 1000) / 1000);
  return String(Math.round(distanceIn(km, 'mi') * 100) / 100);
}

/** Digits with at most one decimal separator, a point or a comma ("4.2", "4,2", ",5"). */
const TYPED_DECIMAL_RE = /^\s*(\d+(?:[.,]\d*)?|[.,]\d+)\s*$/;

/**
 * A non-negative decimal number as a person types it, with a point or a comma as the decimal
 * separator; null for anything else ("4,2" is 4.2; "4x2", "4.2.1" and "" are nothing, never 42).
 */
export function parseDecimal(text: string): number | null {
  const match = TYPED_DECIMAL_RE.exec(text);
  return match ? Number(match[1]!.replace(',', '.')) : null;
}

/**
 * The km to send for a distance field's text: the stored km when the text is still what
 * `distanceInputValue(storedKm, units)` showed (no drift), else the typed value in km (3
 * decimals), or null when the text is not a non-negative decimal number.
 */
export function distanceFromInput(text: string, units: Units, storedKm?: number | null): number | null {
  if (storedKm != null && text.trim() === distanceInputValue(storedKm, units)) return storedKm;
  const value = parseDecimal(text);
  return value === null ? null : distanceToKm(value, units);
}
