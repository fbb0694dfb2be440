import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addDays,
  dateInZone,
  daysBetween,
  formatDuration,
  isValidDate,
  isValidTimeZone,
  isoWeekOf,
  isoWeekStart,
  isoWeekday,
  isoWeeksInYear,
  isoYearBounds,
  isoYearStart,
  paceMinPerKm,
  parseDuration,
  round2,
  speedKmh,
  startOfDayInZone,
} from './time.js';

/** Every calendar date from 1900 to 2100 as `YYYY-MM-DD`, drawn by day number. */
const FIRST_DAY_MS = Date.UTC(1900, 0, 1);
const LAST_DAY_MS = Date.UTC(2100, 11, 31);
const anyDate = fc
  .integer({ min: 0, max: Math.round((LAST_DAY_MS - FIRST_DAY_MS) / 86_400_000) })
  .map((n) => new Date(FIRST_DAY_MS + n * 86_400_000).toISOString().slice(0, 10));

/** ISO week by the textbook ordinal-day formula, independent of the code under test. */
function referenceIsoWeek(ymd: string): { year: number; week: number } {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  const ordinal = Math.round((date.getTime() - Date.UTC(y, 0, 1)) / 86_400_000) + 1;
  const weekday = date.getUTCDay() === 0 ? 7 : date.getUTCDay();
  const weeksIn = (year: number) => {
    const p = (yr: number) => (yr + Math.floor(yr / 4) - Math.floor(yr / 100) + Math.floor(yr / 400)) % 7;
    return p(year) === 4 || p(year - 1) === 3 ? 53 : 52;
  };
  const week = Math.floor((ordinal - weekday + 10) / 7);
  if (week < 1) return { year: y - 1, week: weeksIn(y - 1) };
  if (week > weeksIn(y)) return { year: y + 1, week: 1 };
  return { year: y, week };
}

describe('round2', () => {
  it('rounds to two decimals, half away from zero', () => {
    expect(round2(1.234)).toBe(1.23);
    expect(round2(1.235)).toBe(1.24);
    expect(round2(2.5)).toBe(2.5);
    expect(round2(-1.235)).toBe(-1.24);
    expect(round2(0)).toBe(0);
  });

  it('rounds values whose binary form sits just under the half up, as a person would', () => {
    // 1.005 is stored as 1.00499999999999989...; Math.round(x * 100) / 100 gives 1.
    expect(round2(1.005)).toBe(1.01);
    expect(round2(0.285)).toBe(0.29);
    expect(round2(1.6949999999999998)).toBe(1.7);
  });

  it('never moves a value by more than half a cent', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (v) => {
        const r = round2(v);
        expect(Math.abs(r - v)).toBeLessThanOrEqual(0.005 + 1e-9);
        expect(Math.abs(Math.round(r * 100) - r * 100)).toBeLessThan(1e-6);
      }),
    );
  });
});

describe('speed and pace', () => {
  it('computes km/h and min/km from distance and seconds', () => {
    expect(speedKmh(10, 3600)).toBe(10);
    expect(paceMinPerKm(10, 3600)).toBe(6);
    expect(speedKmh(5, 1200)).toBe(15);
    expect(paceMinPerKm(5, 1200)).toBe(4);
  });

  it('gives the marathon numbers people expect', () => {
    // 42.195 km in 3:30:00
    expect(round2(speedKmh(42.195, 3.5 * 3600))).toBe(12.06);
    expect(round2(paceMinPerKm(42.195, 3.5 * 3600))).toBe(4.98);
  });

  it('is zero rather than infinite for zero time or distance', () => {
    expect(speedKmh(10, 0)).toBe(0);
    expect(paceMinPerKm(0, 600)).toBe(0);
  });

  it('speed times pace is always 60', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 359_999 }), (metres, seconds) => {
        const km = metres / 1000;
        expect(speedKmh(km, seconds) * paceMinPerKm(km, seconds)).toBeCloseTo(60, 9);
      }),
    );
  });

  it('pace from exact values differs from pace derived from a rounded speed (the server must use exact values)', () => {
    // 1.063 km in 332 s: speed 11.5265 -> 11.53; 60 / 11.53 = 5.2038 -> 5.20, exact pace 5.2053 -> 5.21.
    expect(round2(paceMinPerKm(1.063, 332))).toBe(5.21);
    expect(round2(60 / round2(speedKmh(1.063, 332)))).toBe(5.2);
  });
});

describe('parseDuration', () => {
  it('parses HH:MM:SS into seconds', () => {
    expect(parseDuration('00:00:01')).toBe(1);
    expect(parseDuration('01:02:03')).toBe(3723);
    expect(parseDuration('99:59:59')).toBe(99 * 3600 + 59 * 60 + 59);
    expect(parseDuration('00:00:00')).toBe(0);
  });

  it.each([
    '1:00:00',
    '01:00',
    '01:60:00',
    '01:00:60',
    '001:00:00',
    'aa:bb:cc',
    '',
    ' 01:00:00',
    '01:00:00 ',
    '-1:00:00',
    '01-00-00',
  ])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeNull();
  });
});

describe('formatDuration', () => {
  it('formats seconds as zero-padded HH:MM:SS', () => {
    expect(formatDuration(0)).toBe('00:00:00');
    expect(formatDuration(59)).toBe('00:00:59');
    expect(formatDuration(3723)).toBe('01:02:03');
    expect(formatDuration(99 * 3600 + 59 * 60 + 59)).toBe('99:59:59');
  });

  it('lets hours grow past two digits when they must', () => {
    expect(formatDuration(100 * 3600)).toBe('100:00:00');
  });

  it('round-trips with parseDuration for every valid duration', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99 * 3600 + 59 * 60 + 59 }), (seconds) => {
        expect(parseDuration(formatDuration(seconds))).toBe(seconds);
      }),
    );
  });
});

describe('calendar dates', () => {
  it('accepts real dates only', () => {
    expect(isValidDate('2024-02-29')).toBe(true);
    expect(isValidDate('2023-02-29')).toBe(false);
    expect(isValidDate('1900-02-29')).toBe(false);
    expect(isValidDate('2000-02-29')).toBe(true);
    expect(isValidDate('2026-04-31')).toBe(false);
    expect(isValidDate('2026-13-01')).toBe(false);
    expect(isValidDate('2026-00-10')).toBe(false);
    expect(isValidDate('2026-1-1')).toBe(false);
    expect(isValidDate('2026-01-01T00:00:00Z')).toBe(false);
    expect(isValidDate('')).toBe(false);
  });

  it('adds days and counts days across month, year and leap boundaries', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-02-29', 1)).toBe('2024-03-01');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysBetween('2025-12-31', '2026-01-01')).toBe(1);
    expect(daysBetween('2026-03-18', '2026-03-04')).toBe(-14);
  });

  it('gives ISO weekdays Monday 1 to Sunday 7', () => {
    expect(isoWeekday('2026-03-16')).toBe(1);
    expect(isoWeekday('2026-03-22')).toBe(7);
    expect(isoWeekStart('2026-03-22')).toBe('2026-03-16');
    expect(isoWeekStart('2026-03-16')).toBe('2026-03-16');
    expect(isoWeekStart('2021-01-01')).toBe('2020-12-28');
  });
});

describe('ISO weeks', () => {
  it('puts 2020-12-31 to 2021-01-03 in week 53 of 2020', () => {
    for (const d of ['2020-12-28', '2020-12-31', '2021-01-01', '2021-01-03']) {
      expect(isoWeekOf(d)).toEqual({ year: 2020, week: 53 });
    }
    expect(isoWeekOf('2021-01-04')).toEqual({ year: 2021, week: 1 });
  });

  it('puts 2024-12-30 in week 1 of 2025', () => {
    expect(isoWeekOf('2024-12-29')).toEqual({ year: 2024, week: 52 });
    expect(isoWeekOf('2024-12-30')).toEqual({ year: 2025, week: 1 });
    expect(isoWeekOf('2025-01-05')).toEqual({ year: 2025, week: 1 });
  });

  it('knows 2026 has a week 53 that ends on 2027-01-03', () => {
    expect(isoWeekOf('2026-12-31')).toEqual({ year: 2026, week: 53 });
    expect(isoWeekOf('2027-01-03')).toEqual({ year: 2026, week: 53 });
    expect(isoWeekOf('2027-01-04')).toEqual({ year: 2027, week: 1 });
  });

  it('counts weeks per ISO year', () => {
    expect(isoWeeksInYear(2015)).toBe(53);
    expect(isoWeeksInYear(2020)).toBe(53);
    expect(isoWeeksInYear(2026)).toBe(53);
    expect(isoWeeksInYear(2024)).toBe(52);
    expect(isoWeeksInYear(2025)).toBe(52);
  });

  it('bounds an ISO year from the Monday of week 1 to the Sunday of its last week', () => {
    expect(isoYearStart(2021)).toBe('2021-01-04');
    expect(isoYearStart(2025)).toBe('2024-12-30');
    expect(isoYearBounds(2020)).toEqual({ start: '2019-12-30', end: '2021-01-03' });
    expect(isoYearBounds(2026)).toEqual({ start: '2025-12-29', end: '2027-01-03' });
  });

  it('agrees with the textbook formula on every date 1900-2100', () => {
    fc.assert(
      fc.property(anyDate, (d) => {
        expect(isoWeekOf(d)).toEqual(referenceIsoWeek(d));
      }),
      { numRuns: 2000 },
    );
  });

  it('places every date inside the bounds of its own ISO year, on the right Monday', () => {
    fc.assert(
      fc.property(anyDate, (d) => {
        const { year, week } = isoWeekOf(d);
        const { start, end } = isoYearBounds(year);
        expect(d >= start && d <= end).toBe(true);
        expect(isoWeekStart(d)).toBe(addDays(start, (week - 1) * 7));
        expect(week).toBeLessThanOrEqual(isoWeeksInYear(year));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('time zones', () => {
  const noon = new Date('2026-03-18T12:00:00Z');

  it('validates IANA names', () => {
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Pacific/Kiritimati')).toBe(true);
    expect(isValidTimeZone('Europe/Nowhere')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
    expect(isValidTimeZone('x'.repeat(65))).toBe(false);
  });

  it('gives the calendar date of an instant far east and far west of UTC', () => {
    expect(dateInZone(noon, 'UTC')).toBe('2026-03-18');
    expect(dateInZone(noon, 'Pacific/Kiritimati')).toBe('2026-03-19'); // +14: 02:00 next day
    expect(dateInZone(noon, 'Pacific/Pago_Pago')).toBe('2026-03-18'); // -11: 01:00
    expect(dateInZone(new Date('2026-03-18T10:59:59Z'), 'Pacific/Pago_Pago')).toBe('2026-03-17');
    expect(dateInZone(new Date('2026-03-18T09:59:59Z'), 'Pacific/Kiritimati')).toBe('2026-03-18');
    expect(dateInZone(new Date('2026-03-18T10:00:00Z'), 'Pacific/Kiritimati')).toBe('2026-03-19');
  });

  it('crosses the year in the zone, not in UTC', () => {
    expect(dateInZone(new Date('2025-12-31T10:00:00Z'), 'Pacific/Kiritimati')).toBe('2026-01-01');
    expect(dateInZone(new Date('2026-01-01T10:00:00Z'), 'Pacific/Pago_Pago')).toBe('2025-12-31');
  });

  it('finds the start of a day in zones far east and west of UTC', () => {
    expect(startOfDayInZone('2026-03-18', 'UTC').toISOString()).toBe('2026-03-18T00:00:00.000Z');
    expect(startOfDayInZone('2026-03-18', 'Pacific/Kiritimati').toISOString()).toBe('2026-03-17T10:00:00.000Z');
    expect(startOfDayInZone('2026-03-18', 'Pacific/Pago_Pago').toISOString()).toBe('2026-03-18T11:00:00.000Z');
  });

  it('finds the start of a day across DST changes', () => {
    // New York: spring forward at 02:00 on 2026-03-08, fall back at 02:00 on 2026-11-01.
    expect(startOfDayInZone('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfDayInZone('2026-03-09', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(startOfDayInZone('2026-11-01', 'America/New_York').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(startOfDayInZone('2026-11-02', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
    // Europe/Berlin: 2026-03-29 02:00 -> 03:00.
    expect(startOfDayInZone('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDayInZone('2026-03-30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it('starts the day at the first instant that exists when DST skips midnight', () => {
    // Chile: on 2026-09-06 clocks jump from 00:00 (-04) to 01:00 (-03); the day begins at 01:00 -03.
    const start = startOfDayInZone('2026-09-06', 'America/Santiago');
    expect(start.toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(dateInZone(start, 'America/Santiago')).toBe('2026-09-06');
  });

  it('the start of a day is on that day and the instant before it is on the day before', () => {
    const zones = [
      'UTC',
      'Pacific/Kiritimati',
      'Pacific/Pago_Pago',
      'America/New_York',
      'Europe/Berlin',
      'Australia/Lord_Howe',
      'Asia/Kolkata',
    ];
    const recent = fc.integer({ min: 0, max: 365 * 30 }).map((n) => addDays('2000-01-01', n));
    fc.assert(
      fc.property(recent, fc.constantFrom(...zones), (d, zone) => {
        const start = startOfDayInZone(d, zone);
        expect(dateInZone(start, zone)).toBe(d);
        expect(dateInZone(new Date(start.getTime() - 1), zone)).toBe(addDays(d, -1));
      }),
      { numRuns: 1000 },
    );
  });

  it('gives the date Intl gives for instants of many days, next to offset changes too', () => {
    const zones = [
      'UTC',
      'America/New_York',
      'Europe/Paris',
      'Australia/Lord_Howe',
      'Africa/Casablanca',
      'Pacific/Apia',
    ];
    const intlDate = (ms: number, timeZone: string) =>
      new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
    // Any instant from 1990 to 2040, and instants within an hour of 01:00-03:00 UTC on March and October Sundays.
    const anyInstant = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2040, 0, 1) });
    const nearChange = fc
      .record({
        year: fc.integer({ min: 1990, max: 2040 }),
        month: fc.constantFrom(2, 3, 9, 10),
        day: fc.integer({ min: 1, max: 31 }),
        minute: fc.integer({ min: 0, max: 24 * 60 }),
      })
      .map((p) => Date.UTC(p.year, p.month, p.day) + p.minute * 60_000);
    fc.assert(
      fc.property(fc.oneof(anyInstant, nearChange), fc.constantFrom(...zones), (ms, zone) => {
        expect(dateInZone(new Date(ms), zone)).toBe(intlDate(ms, zone));
      }),
      { numRuns: 2000 },
    );
  });
});
