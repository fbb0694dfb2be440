/**
 * Distances, speeds and paces in the runner's unit (CONTRACT.md §11). The API speaks km; every
 * screen shows and accepts what `useUnits()` gives: the unit, its labels and formatters built on
 * `core/units.ts`, where all conversions live. A distance field starts with `inputValue(km)` and
 * sends `toKm(text, storedKm)`: unchanged, it sends the stored km back, so nothing drifts.
 */
import { useContext } from 'react';
import { formatNumber } from '../../core/format.js';
import {
  distanceFromInput,
  distanceIn,
  distanceInputValue,
  paceIn,
  speedIn,
  unitLabels,
  type Units,
} from '../../core/units.js';
import { UnitsContext } from './units-context';

export interface UnitsFormat {
  units: Units;
  /** `km`/`mi`, `min/km`/`min/mi`, `km/h`/`mph`. */
  labels: { distance: string; pace: string; speed: string };
  /** Numbers in the unit, unrounded (charts). */
  distance(km: number): number;
  speed(kmh: number): number;
  pace(minPerKm: number): number;
  /** Two decimals in the unit, or "—" when there is nothing to show. */
  formatDistance(km: number | null | undefined): string;
  formatSpeed(kmh: number | null | undefined): string;
  formatPace(minPerKm: number | null | undefined): string;
  /** One run's distance: as stored in km (up to 3 decimals), two decimals in miles. */
  runDistance(km: number): string;
  /** The text a distance field starts with. */
  inputValue(km: number): string;
  /** The km a distance field's text stands for (the stored km while it is unchanged), or null. */
  toKm(text: string, storedKm?: number | null): number | null;
}

const convert = (fn: (value: number, units: Units) => number, units: Units) => (value: number | null | undefined) =>
  formatNumber(typeof value === 'number' ? fn(value, units) : value);

function build(units: Units): UnitsFormat {
  return {
    units,
    labels: unitLabels(units),
    distance: (km) => distanceIn(km, units),
    speed: (kmh) => speedIn(kmh, units),
    pace: (minPerKm) => paceIn(minPerKm, units),
    formatDistance: convert(distanceIn, units),
    formatSpeed: convert(speedIn, units),
    formatPace: convert(paceIn, units),
    runDistance: (km) => (units === 'km' ? String(km) : formatNumber(distanceIn(km, units))),
    inputValue: (km) => distanceInputValue(km, units),
    toKm: (text, storedKm) => distanceFromInput(text, units, storedKm),
  };
}

const FORMATS: Record<Units, UnitsFormat> = { km: build('km'), mi: build('mi') };

/** The formatters of a unit (the same object every time). */
export function unitsFormat(units: Units): UnitsFormat {
  return FORMATS[units];
}

/** The signed-in runner's unit and its formatters (km for a visitor). */
export function useUnits(): UnitsFormat {
  return unitsFormat(useContext(UnitsContext));
}
