/** Display formats of SPEC.md §9, shared by every screen. */
import { zonedParts } from './time.js';

const NO_VALUE = '—';

/** `YYYY-MM-DD` → `MM/DD/YYYY`. */
export function formatDate(ymd: string | null | undefined): string {
  const match = ymd ? /^(\d{4})-(\d{2})-(\d{2})/.exec(ymd) : null;
  return match ? `${match[2]}/${match[3]}/${match[1]}` : NO_VALUE;
}

/** ISO timestamp → `MM/DD/YYYY HH:mm:ss` in the viewer's local time. */
export function formatDateTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return NO_VALUE;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return NO_VALUE;
  const p = zonedParts(date, timeZone);
  const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  return `${two(p.month)}/${two(p.day)}/${String(p.year ?? 0).padStart(4, '0')} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
}

/** A number with two decimals, or "—" when there is nothing to show. */
export function formatNumber(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(2) : NO_VALUE;
}

/** Any text value, or "—" when absent. */
export function formatText(value: string | null | undefined): string {
  return value ? value : NO_VALUE;
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
