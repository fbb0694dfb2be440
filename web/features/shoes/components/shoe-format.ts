import { decimal } from '../../../../core/format.js';
import { distanceIn, type Units } from '../../../../core/units.js';

/**
 * A distance in km, in the runner's unit, with at most one decimal: "512.3 km" (the language's
 * decimal separator; `distanceUnit` is the unit's label in the language, `useDisplay().labels.distance`).
 */
export function formatShoeDistance(km: number, units: Units, distanceUnit: string): string {
  const value = Math.round(distanceIn(km, units) * 10) / 10;
  return `${decimal(value, Number.isInteger(value) ? 0 : 1)} ${distanceUnit}`;
}
