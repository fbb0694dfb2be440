/**
 * A runner's preferences (CONTRACT.md §11): the unit distances are shown in and the colour
 * theme. Plain constants (no zod), so that the web app's first screen can check them.
 */
export { UNITS, type Units } from './units.js';

export const THEMES = ['auto', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const DEFAULT_UNITS = 'km';
export const DEFAULT_THEME = 'auto';

export const UNITS_MESSAGE = 'The units must be km or mi.';
export const THEME_MESSAGE = 'The theme must be auto, light or dark.';
