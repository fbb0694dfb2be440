/**
 * Numbers and dates as the runner reads them (CONTRACT.md §11, §18). The API speaks km, min/km
 * and `YYYY-MM-DD`; every screen shows what `useDisplay()` gives: the unit, its labels, and
 * formatters built on `core/format.ts` and `core/units.ts`, where every conversion and format
 * lives. A distance field starts with `inputValue(km)` and sends `toKm(text, storedKm)`:
 * unchanged, it sends the stored km back, so nothing drifts.
 */
import { useContext, useMemo } from 'react';
import type { PaceFormat } from '../../core/preferences.js';
import { exactDecimal, formatDate, formatDateTime, formatNumber, formatPace } from '../../core/format.js';
import { dateInZone, paceMinPerKm, parseDuration } from '../../core/time.js';
import { distanceFromInput, distanceIn, distanceInputValue, paceIn, speedIn, type Units } from '../../core/units.js';
import unitTexts from 'virtual:i18n/units';
import { t, useLanguage, useT, type Language } from '../i18n/runtime';
import { DisplayContext, type DisplayPreferences } from './display-context';

export interface Display extends DisplayPreferences {
  /** The app's language, whose decimal separator and short date the formatters write. */
  language?: Language;
  /**
   * The units as the language writes them (the `units` catalog): `km`/`mi`; `min/km`, `/km` (a
   * clock), `min/mi` or `/mi`; `km/h`/`mph`; an elevation's `m`/`ft`; a heart rate's `bpm`.
   */
  labels: { distance: string; pace: string; speed: string; elevation: string; heartRate: string };
  /** Numbers in the unit, unrounded (charts). */
  distance(km: number): number;
  speed(kmh: number): number;
  pace(minPerKm: number): number;
  /** Two decimals in the unit, or "—" when there is nothing to show. */
  formatDistance(km: number | null | undefined): string;
  formatSpeed(kmh: number | null | undefined): string;
  /** A pace given in min/km, in the unit and the runner's format ("5.35" or "5:21"), without its label. */
  formatPace(minPerKm: number | null | undefined): string;
  /** A run's own pace, from its exact distance and time (not the API's rounded one). */
  runPace(run: { distance: number; time: string }): string;
  /** One run's distance: as stored in km (up to 3 decimals), two decimals in miles. */
  runDistance(km: number): string;
  /** The text a distance field starts with. */
  inputValue(km: number): string;
  /** The km a distance field's text stands for (the stored km while it is unchanged), or null. */
  toKm(text: string, storedKm?: number | null): number | null;
  /** A `YYYY-MM-DD` date, and an ISO timestamp in the runner's zone, in the runner's date format. */
  formatDate(ymd: string | null | undefined): string;
  formatDateTime(iso: string | null | undefined): string;
  /** Today's `YYYY-MM-DD` in the runner's zone. */
  today(): string;
}

/** The units' labels in the current language (`units` is loaded: `useDisplay` waits for it). */
function labelsOf(unit: Units, paceFormat: PaceFormat): Display['labels'] {
  const clock = paceFormat === 'clock';
  return unit === 'mi'
    ? {
        distance: t('units.mi'),
        pace: t(clock ? 'units.pace.perMi' : 'units.pace.minPerMi'),
        speed: t('units.speed.mph'),
        elevation: t('units.elevation.ft'),
        heartRate: t('units.heartRate'),
      }
    : {
        distance: t('units.km'),
        pace: t(clock ? 'units.pace.perKm' : 'units.pace.minPerKm'),
        speed: t('units.speed.kmh'),
        elevation: t('units.elevation.m'),
        heartRate: t('units.heartRate'),
      };
}

const convert = (fn: (value: number, units: Units) => number, units: Units) => (value: number | null | undefined) =>
  formatNumber(typeof value === 'number' ? fn(value, units) : value);

/** The formatters of a set of preferences. */
export function displayOf(preferences: DisplayPreferences): Display {
  const { units, paceFormat, dateFormat, timeZone } = preferences;
  const pace = (minPerKm: number | null | undefined) => formatPace(minPerKm, units, paceFormat);
  return {
    ...preferences,
    labels: labelsOf(units, paceFormat),
    distance: (km) => distanceIn(km, units),
    speed: (kmh) => speedIn(kmh, units),
    pace: (minPerKm) => paceIn(minPerKm, units),
    formatDistance: convert(distanceIn, units),
    formatSpeed: convert(speedIn, units),
    formatPace: pace,
    runPace: (run) => pace(paceMinPerKm(run.distance, parseDuration(run.time) ?? 0)),
    runDistance: (km) => (units === 'km' ? exactDecimal(km) : formatNumber(distanceIn(km, units))),
    inputValue: (km) => distanceInputValue(km, units),
    toKm: (text, storedKm) => distanceFromInput(text, units, storedKm),
    formatDate: (ymd) => formatDate(ymd, dateFormat),
    formatDateTime: (iso) => formatDateTime(iso, timeZone, dateFormat),
    today: () => dateInZone(new Date(), timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone),
  };
}

/** The signed-in runner's units, formats and formatters (km, decimal paces and MM/DD/YYYY for a visitor). */
export function useDisplay(): Display {
  const preferences = useContext(DisplayContext);
  // The formatters write the language's decimal separator, short date and units: new ones when it changes.
  const language = useLanguage();
  useT(unitTexts);
  return useMemo(() => ({ ...displayOf(preferences), language }), [preferences, language]);
}
