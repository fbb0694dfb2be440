/**
 * A runner's preferences (CONTRACT.md §11, §18): the unit distances are shown in, the colour
 * theme, and how paces and dates are written. Plain constants (no zod), so that the web app's
 * first screen can check them.
 */
export const UNITS = ['km', 'mi'] as const;
export type Units = (typeof UNITS)[number];

export const THEMES = ['auto', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** `decimal`: 5.35 min/km; `clock`: 5:21 /km (minutes and seconds). */
export const PACE_FORMATS = ['decimal', 'clock'] as const;
export type PaceFormat = (typeof PACE_FORMATS)[number];

/** `auto` (§19): the short date of the app's language (`dateFormatFor` in core/i18n/languages.ts). */
export const DATE_FORMATS = ['auto', 'MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** The user's language (§19): `auto` follows the browser, else one of the six. */
export const LOCALES = ['auto', 'en', 'de', 'fr', 'es', 'it', 'nl'] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_UNITS = 'km';
export const DEFAULT_THEME = 'auto';
export const DEFAULT_PACE_FORMAT: PaceFormat = 'decimal';
/** What a date shows as where no preference or language says otherwise (§18). */
export const DEFAULT_DATE_FORMAT = 'MM/DD/YYYY' satisfies DateFormat;
/** The date format of users created from Part 4 on (§19); stored users keep theirs. */
export const NEW_USER_DATE_FORMAT: DateFormat = 'auto';
export const DEFAULT_LOCALE: Locale = 'auto';

export const UNITS_MESSAGE = 'The units must be km or mi.';
export const THEME_MESSAGE = 'The theme must be auto, light or dark.';
