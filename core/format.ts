/**
 * How numbers, paces and dates are written on every screen (SPEC.md §9, CONTRACT.md §18): one
 * formatter each, following the runner's preferences (`date_format`, `pace_format`, `units`) and
 * the web app's language (§19: its decimal separator, and its short date for `date_format: auto`),
 * set once in core/number-locale.ts.
 */
import type { LanguageDateFormat } from './i18n/languages.js';
import { DEFAULT_DATE_FORMAT, type DateFormat, type PaceFormat } from './preferences.js';
import { paceIn, unitLabels, type Units } from './units.js';
import { numberLocale } from './number-locale.js';
import { zonedParts } from './time.js';

export const NO_VALUE = '—';

const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');

/** `value` with `digits` decimals and the language's decimal separator, no grouping ("4.20", "4,20"). */
export function decimal(value: number, digits: number): string {
  return withSeparator(value.toFixed(digits));
}

/** A number written with a point, with the language's decimal separator instead. */
const withSeparator = (text: string) =>
  numberLocale.decimalSeparator === '.' ? text : text.replace('.', numberLocale.decimalSeparator);

/** A number as stored, every decimal kept, with the language's decimal separator ("5.2", "5,2"). */
export function exactDecimal(value: number): string {
  return withSeparator(String(value));
}

/** A date format a date can be written in: a user's preference (`auto`: the app's language's short date, §19) or a language's. */
export type WritableDateFormat = DateFormat | LanguageDateFormat;

/** Year, month and day as the format writes them. */
function writeDate(year: string, month: string, day: string, chosen: WritableDateFormat): string {
  const format = chosen === 'auto' ? numberLocale.shortDate : chosen;
  if (format === 'DD.MM.YYYY') return `${day}.${month}.${year}`;
  if (format === 'DD-MM-YYYY') return `${day}-${month}-${year}`;
  if (format === 'DD/MM/YYYY') return `${day}/${month}/${year}`;
  if (format === 'YYYY-MM-DD') return `${year}-${month}-${day}`;
  return `${month}/${day}/${year}`;
}

/** `YYYY-MM-DD` in the runner's format (`MM/DD/YYYY` by default), or "—" without a date. */
export function formatDate(ymd: string | null | undefined, format: WritableDateFormat = DEFAULT_DATE_FORMAT): string {
  const match = ymd ? /^(\d{4})-(\d{2})-(\d{2})/.exec(ymd) : null;
  return match ? writeDate(match[1]!, match[2]!, match[3]!, format) : NO_VALUE;
}

/** An ISO timestamp as its date in the runner's format and `HH:mm:ss` (24-hour), in `timeZone` (local without one). */
export function formatDateTime(
  iso: string | null | undefined,
  timeZone?: string,
  format: WritableDateFormat = DEFAULT_DATE_FORMAT,
): string {
  if (!iso) return NO_VALUE;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return NO_VALUE;
  const p = zonedParts(date, timeZone);
  const day = writeDate(String(p.year ?? 0).padStart(4, '0'), two(p.month), two(p.day), format);
  return `${day} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
}

/** A number with two decimals, or "—" when there is nothing to show. */
export function formatNumber(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? decimal(value, 2) : NO_VALUE;
}

/** A count and what it counts: "1 run", "12 runs", "1,500 days" (English; other languages group no digits, §19). */
export function formatCount(n: number, one: string, many = `${one}s`): string {
  const count = numberLocale.decimalSeparator === '.' ? n.toLocaleString('en-US') : decimal(n, 0);
  return `${count} ${n === 1 ? one : many}`;
}

/** Any text value, or "—" when absent. */
export function formatText(value: string | null | undefined): string {
  return value ? value : NO_VALUE;
}

/** Minutes as a clock, `m:ss`, or `h:mm:ss` from an hour on (5.35 → "5:21"). */
export function formatClock(minutes: number): string {
  const total = Math.round(minutes * 60);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = two(total % 60);
  return h > 0 ? `${h}:${two(m)}:${s}` : `${m}:${s}`;
}

/** What a pace is written after: `min/km` for decimals, `/km` for a clock (and the same in miles). */
export function paceUnit(units: Units, format: PaceFormat): string {
  const label = unitLabels(units).pace;
  return format === 'clock' ? label.replace(/^min/, '') : label;
}

/**
 * A pace given in min/km, in the runner's unit and format, without its unit: "5.35" (decimal
 * minutes, 2 decimals) or "5:21" (a clock); "—" when there is none.
 */
export function formatPace(minPerKm: number | null | undefined, units: Units, format: PaceFormat): string {
  if (typeof minPerKm !== 'number' || !Number.isFinite(minPerKm)) return NO_VALUE;
  const pace = paceIn(minPerKm, units);
  return format === 'clock' ? formatClock(pace) : decimal(pace, 2);
}

/** Left-pads a time part to two digits with zeros ("5" → "05", "" → "00"). */
export function padTimePart(value: string | number): string {
  return String(value).trim().padStart(2, '0').slice(-2);
}

/** Joins hours, minutes and seconds form fields into `HH:MM:SS`. */
export function joinTime(hours: string, minutes: string, seconds: string): string {
  return [hours, minutes, seconds].map(padTimePart).join(':');
}

/** Splits `HH:MM:SS` into form fields. */
export function splitTime(time: string): { hours: string; minutes: string; seconds: string } {
  const [hours = '00', minutes = '00', seconds = '00'] = time.split(':');
  return { hours: padTimePart(hours), minutes: padTimePart(minutes), seconds: padTimePart(seconds) };
}
