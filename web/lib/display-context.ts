import { createContext } from 'react';
import type { DateFormat, PaceFormat } from '../../core/preferences.js';
import type { Units } from '../../core/units.js';

/** How the signed-in runner reads numbers and dates (CONTRACT.md §11, §18), and where their today is. */
export interface DisplayPreferences {
  units: Units;
  paceFormat: PaceFormat;
  dateFormat: DateFormat;
  /** The runner's time zone; the browser's for a visitor. */
  timeZone: string | undefined;
}

export const DEFAULT_DISPLAY: DisplayPreferences = {
  units: 'km',
  paceFormat: 'decimal',
  dateFormat: 'MM/DD/YYYY',
  timeZone: undefined,
};

/**
 * Provided by the app shell from the current user. A module of its own, without the formatters
 * of `display.ts`, so that the first download stays small.
 */
export const DisplayContext = createContext<DisplayPreferences>(DEFAULT_DISPLAY);
