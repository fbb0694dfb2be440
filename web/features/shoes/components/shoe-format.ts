import { distanceIn, unitLabels, type Units } from '../../../../core/units.js';

/** A distance in km, in the runner's unit, with at most one decimal: "512.3 km". */
export function formatShoeDistance(km: number, units: Units): string {
  const value = Math.round(distanceIn(km, units) * 10) / 10;
  return `${value.toLocaleString('en-US')} ${unitLabels(units).distance}`;
}
