import { distanceIn, distanceToKm, unitLabels, type Units } from '../../../../core/units.js';

/** A distance in km, in the runner's unit, with at most one decimal: "512.3 km". */
export function formatShoeDistance(km: number, units: Units): string {
  const value = Math.round(distanceIn(km, units) * 10) / 10;
  return `${value.toLocaleString('en-US')} ${unitLabels(units).distance}`;
}

/** The limit as the form shows it, in the runner's unit (3 decimals at most). */
export const limitForForm = (km: number, units: Units) => String(Math.round(distanceIn(km, units) * 1000) / 1000);

/** The limit typed in the runner's unit, in km for the API (NaN when it is not a number). */
export const limitFromForm = (text: string, units: Units) =>
  text.trim() === '' || Number.isNaN(Number(text)) ? Number.NaN : distanceToKm(Number(text), units);
