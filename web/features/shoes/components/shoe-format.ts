import { decimal } from '../../../../core/format.js';
import { distanceIn, unitLabels, type Units } from '../../../../core/units.js';

/** A distance in km, in the runner's unit, with at most one decimal: "512.3 km" (the language's decimal separator). */
export function formatShoeDistance(km: number, units: Units): string {
  const value = Math.round(distanceIn(km, units) * 10) / 10;
  return `${decimal(value, Number.isInteger(value) ? 0 : 1)} ${unitLabels(units).distance}`;
}
