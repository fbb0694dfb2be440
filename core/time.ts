/**
 * Date, duration, speed and ISO-week maths shared by the server and the web app.
 * Calendar dates are plain `YYYY-MM-DD` strings; arithmetic on them is done in UTC
 * so that no local time zone of the machine can shift a day.
 */

const DAY_MS = 86_400_000;
const YMD_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DURATION_RE = /^(\d{2}):(\d{2}):(\d{2})$/;

/** Rounds half away from zero to `scale` (10, 100...); the nudge keeps 1.005 from falling to 1.00. */
function roundHalfAway(value: number, scale: number): number {
  const sign = value < 0 ? -1 : 1;
  return (sign * Math.round(Math.abs(value) * scale + 1e-9)) / scale;
}

/** Rounds half away from zero to two decimals, as shown everywhere in the product. */
export function round2(value: number): number {
  return roundHalfAway(value, 100);
}

/** Rounds half away from zero to one decimal (a track's metres, seconds and minutes). */
export function round1(value: number): number {
  return roundHalfAway(value, 10);
}

/** Rounds km to the metre (three decimals), hiding floating-point noise in sums. */
export function roundKm(km: number): number {
  return Math.round(km * 1000) / 1000;
}

/** Parses `HH:MM:SS` (hours 00-99, minutes and seconds 00-59) into seconds, or null. */
export function parseDuration(text: string): number | null {
  const match = DURATION_RE.exec(text);
  if (!match) return null;
  const [hours, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (minutes > 59 || seconds > 59) return null;
  return hours * 3600 + minutes * 60 + seconds;
}

/** Formats seconds as `HH:MM:SS`; hours grow past two digits only if they must. */
export function formatDuration(totalSeconds: number): string {
  const whole = Math.max(0, Math.round(totalSeconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = whole % 60;
  return [hours, minutes, seconds].map((part) => String(part).padStart(2, '0')).join(':');
}

/** Average speed in km/h for a distance in km covered in the given seconds. */
export function speedKmh(distanceKm: number, seconds: number): number {
  return seconds > 0 ? (distanceKm * 3600) / seconds : 0;
}

/** Average pace in minutes per km. */
export function paceMinPerKm(distanceKm: number, seconds: number): number {
  return distanceKm > 0 ? seconds / 60 / distanceKm : 0;
}

// Reports convert the same few hundred dates back and forth many times: both directions
// are remembered (bounded), which saves parsing and Date objects on every call.
const msOfDate = new Map<string, number>();
const dateOfMs = new Map<number, string>();
const MEMO_LIMIT = 50_000;

/** Midnight UTC of a `YYYY-MM-DD` date, in ms since the epoch. */
function utcMs(ymd: string): number {
  let ms = msOfDate.get(ymd);
  if (ms === undefined) {
    const match = YMD_RE.exec(ymd);
    if (!match) throw new RangeError(`Not a YYYY-MM-DD date: ${ymd}`);
    ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
    if (msOfDate.size >= MEMO_LIMIT) msOfDate.clear();
    msOfDate.set(ymd, ms);
  }
  return ms;
}

function toUtcDate(ymd: string): Date {
  return new Date(utcMs(ymd));
}

/** The `YYYY-MM-DD` date of an instant, in UTC. */
function utcDateOf(ms: number): string {
  let ymd = dateOfMs.get(ms);
  if (ymd === undefined) {
    ymd = new Date(ms).toISOString().slice(0, 10);
    if (dateOfMs.size >= MEMO_LIMIT) dateOfMs.clear();
    dateOfMs.set(ms, ymd);
  }
  return ymd;
}

/** True for a real calendar date written as `YYYY-MM-DD`. */
export function isValidDate(text: string): boolean {
  const match = YMD_RE.exec(text);
  if (!match) return false;
  const date = toUtcDate(text);
  return (
    date.getUTCFullYear() === Number(match[1]) &&
    date.getUTCMonth() + 1 === Number(match[2]) &&
    date.getUTCDate() === Number(match[3])
  );
}

export function addDays(ymd: string, days: number): string {
  return utcDateOf(utcMs(ymd) + days * DAY_MS);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((utcMs(to) - utcMs(from)) / DAY_MS);
}

/** ISO weekday: Monday 1 ... Sunday 7. */
export function isoWeekday(ymd: string): number {
  // 1970-01-01 was a Thursday (4).
  const day = (((Math.floor(utcMs(ymd) / DAY_MS) + 4) % 7) + 7) % 7;
  return day === 0 ? 7 : day;
}

/** The Monday that starts the ISO week holding `ymd`. */
export function isoWeekStart(ymd: string): string {
  return addDays(ymd, 1 - isoWeekday(ymd));
}

/** The ISO week-numbering year and week number of a date. */
export function isoWeekOf(ymd: string): { year: number; week: number } {
  const thursday = addDays(ymd, 4 - isoWeekday(ymd));
  const year = Number(thursday.slice(0, 4));
  const week = Math.floor(daysBetween(`${year}-01-01`, thursday) / 7) + 1;
  return { year, week };
}

/** Monday of ISO week 1 of an ISO week-numbering year. */
export function isoYearStart(year: number): string {
  const jan4 = `${String(year).padStart(4, '0')}-01-04`;
  return isoWeekStart(jan4);
}

/** First and last day (Monday of week 1, Sunday of the last week) of an ISO year. */
export function isoYearBounds(year: number): { start: string; end: string } {
  return { start: isoYearStart(year), end: addDays(isoYearStart(year + 1), -1) };
}

export function isoWeeksInYear(year: number): number {
  return daysBetween(isoYearStart(year), isoYearStart(year + 1)) / 7;
}

/**
 * Formatters per zone, under the zone's canonical name only: any spelling a client sends
 * ("europe/PARIS") is first turned into the canonical one, so the cache holds at most one
 * formatter per real zone (a few hundred), never one per spelling. Bounded all the same.
 */
const zoneFormatters = new Map<string, Intl.DateTimeFormat>();
const ZONE_CACHE_LIMIT = 1000;

function newZoneFormatter(timeZone?: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    ...(timeZone ? { timeZone } : {}),
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** Other spellings seen, each with its canonical name (short strings; bounded). */
const canonicalOf = new Map<string, string>();

/** A cached formatter for a zone; without a zone, the local zone of the machine or browser. */
function zoneFormatter(timeZone?: string): Intl.DateTimeFormat {
  const key = timeZone ? (canonicalOf.get(timeZone) ?? timeZone) : '';
  let formatter = zoneFormatters.get(key);
  if (!formatter) {
    formatter = newZoneFormatter(key || undefined);
    const canonical = key ? formatter.resolvedOptions().timeZone : '';
    if (canonical !== key) {
      if (canonicalOf.size >= ZONE_CACHE_LIMIT) canonicalOf.clear();
      canonicalOf.set(key, canonical);
      return zoneFormatter(canonical);
    }
    if (zoneFormatters.size >= ZONE_CACHE_LIMIT) zoneFormatters.clear();
    zoneFormatters.set(canonical, formatter);
  }
  return formatter;
}

/** How many zone formatters are kept (for the test that they stay one per real zone). */
export function cachedZoneFormatters(): number {
  return zoneFormatters.size;
}

/** The canonical spelling of an IANA zone name (`europe/PARIS` → `Europe/Paris`), or null if it is none. */
export function canonicalTimeZone(timeZone: string): string | null {
  if (timeZone.length === 0 || timeZone.length > 64) return null;
  try {
    return newZoneFormatter(timeZone).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export function isValidTimeZone(timeZone: string): boolean {
  return canonicalTimeZone(timeZone) !== null;
}

/** Wall-clock parts (year, month, day, hour, minute, second) of an instant in a time zone, or locally. */
export function zonedParts(instant: Date, timeZone?: string): Record<string, number> {
  const parts: Record<string, number> = {};
  for (const part of zoneFormatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return parts;
}

function computeDateInZone(instant: Date, timeZone: string): string {
  const parts = zonedParts(instant, timeZone);
  const pad = (n: number | undefined, width = 2) => String(n ?? 0).padStart(width, '0');
  return `${pad(parts.year, 4)}-${pad(parts.month)}-${pad(parts.day)}`;
}

/** Per zone, the last day asked for and the instants it spans: most calls fall in it (Intl is slow). */
const lastDay = new Map<string, { from: number; to: number; date: string }>();

/** Per zone, its offset at UTC midnights (by day number since the epoch); bounded. */
const midnightOffsets = new Map<string, Map<number, number>>();
let midnightOffsetCount = 0;

function offsetAtUtcMidnight(day: number, timeZone: string): number {
  let offsets = midnightOffsets.get(timeZone);
  if (!offsets) {
    if (midnightOffsets.size >= ZONE_CACHE_LIMIT || midnightOffsetCount >= MEMO_LIMIT) {
      midnightOffsets.clear();
      midnightOffsetCount = 0;
    }
    offsets = new Map();
    midnightOffsets.set(timeZone, offsets);
  }
  let offset = offsets.get(day);
  if (offset === undefined) {
    offset = zoneOffsetMs(new Date(day * DAY_MS), timeZone);
    offsets.set(day, offset);
    midnightOffsetCount += 1;
  }
  return offset;
}

/** The calendar date of an instant in a time zone (in any spelling of its name). */
export function dateInZone(instant: Date, spelling: string): string {
  if (!canonicalOf.has(spelling)) zoneFormatter(spelling);
  const timeZone = canonicalOf.get(spelling) ?? spelling;
  const ms = instant.getTime();
  const known = lastDay.get(timeZone);
  if (known && ms >= known.from && ms < known.to) return known.date;
  // Instants of many days (an import): the zone's offset is read once per UTC day, and a UTC
  // day that starts and ends with the same offset holds no change of it (as below).
  const day = Math.floor(ms / DAY_MS);
  const offset = offsetAtUtcMidnight(day, timeZone);
  if (offset === offsetAtUtcMidnight(day + 1, timeZone)) {
    return utcDateOf(Math.floor((ms + offset) / DAY_MS) * DAY_MS);
  }
  const date = computeDateInZone(instant, timeZone);
  const from = startOfDayInZone(date, timeZone).getTime();
  const to = startOfDayInZone(addDays(date, 1), timeZone).getTime();
  // Only a day without an offset change is remembered: within it, every instant has this date.
  const steady = zoneOffsetMs(new Date(from), timeZone) === zoneOffsetMs(new Date(to - 1), timeZone);
  if (steady && ms >= from && ms < to) {
    if (lastDay.size >= ZONE_CACHE_LIMIT) lastDay.clear();
    lastDay.set(timeZone, { from, to, date });
  }
  return date;
}

/** Offset of a time zone from UTC at an instant, in milliseconds. */
function zoneOffsetMs(instant: Date, timeZone: string): number {
  const p = zonedParts(instant, timeZone);
  const asUtc = Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

const dayStarts = new Map<string, number>();

/** The instant at which a calendar day begins in a time zone (its first existing instant). */
export function startOfDayInZone(ymd: string, timeZone: string): Date {
  const key = `${timeZone} ${ymd}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    start = computeStartOfDay(ymd, timeZone).getTime();
    // A bounded memo: days asked for cluster around today.
    if (dayStarts.size >= 2000) dayStarts.clear();
    dayStarts.set(key, start);
  }
  return new Date(start);
}

function computeStartOfDay(ymd: string, timeZone: string): Date {
  const midnightUtc = toUtcDate(ymd).getTime();
  // Usually two passes settle the offset, even next to a DST change.
  let guess = midnightUtc - zoneOffsetMs(new Date(midnightUtc), timeZone);
  guess = midnightUtc - zoneOffsetMs(new Date(guess), timeZone);
  const startsHere = (ms: number) => computeDateInZone(new Date(ms), timeZone) >= ymd;
  if (startsHere(guess) && !startsHere(guess - 1)) return new Date(guess);
  // Midnight does not exist that day (clocks jumped over it): search the first instant of the day.
  let low = midnightUtc - 16 * 3_600_000;
  let high = midnightUtc + 16 * 3_600_000;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (startsHere(middle)) high = middle;
    else low = middle;
  }
  return new Date(high);
}
