import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setNumberLanguage } from './number-locale.js';
import {
  exactDecimal,
  formatClock,
  formatCount,
  formatDate,
  formatDateTime,
  formatNumber,
  formatPace,
  joinTime,
  padTimePart,
  paceUnit,
  splitTime,
} from './format.js';
import { KM_PER_MILE } from './units.js';

describe('dates', () => {
  it('are MM/DD/YYYY by default, and "—" without one', () => {
    expect(formatDate('2026-03-07')).toBe('03/07/2026');
    expect(formatDate(null)).toBe('—');
    expect(formatDate('not a date')).toBe('—');
  });

  it('follow the date_format preference', () => {
    expect(formatDate('2026-03-07', 'MM/DD/YYYY')).toBe('03/07/2026');
    expect(formatDate('2026-03-07', 'DD/MM/YYYY')).toBe('07/03/2026');
    expect(formatDate('2026-03-07', 'YYYY-MM-DD')).toBe('2026-03-07');
    expect(formatDate(undefined, 'YYYY-MM-DD')).toBe('—');
  });

  it('write timestamps with the date in the chosen format and a 24-hour clock, in the given zone', () => {
    expect(formatDateTime('2026-01-02T03:04:05.000Z', 'UTC')).toBe('01/02/2026 03:04:05');
    expect(formatDateTime('2026-01-02T23:30:00.000Z', 'Pacific/Kiritimati')).toBe('01/03/2026 13:30:00');
    expect(formatDateTime('2026-01-02T00:00:00.000Z', 'Pacific/Pago_Pago')).toBe('01/01/2026 13:00:00');
    expect(formatDateTime('2026-06-01T00:00:00.000Z', 'UTC', 'DD/MM/YYYY')).toBe('01/06/2026 00:00:00');
    expect(formatDateTime('2026-06-01T18:07:09.000Z', 'UTC', 'YYYY-MM-DD')).toBe('2026-06-01 18:07:09');
    expect(formatDateTime('garbage')).toBe('—');
  });
});

describe('paces', () => {
  it('are decimal minutes with two decimals by default, and a clock on request: 5.35 min/km is 5:21 /km', () => {
    expect(formatPace(5.35, 'km', 'decimal')).toBe('5.35');
    expect(formatPace(5.35, 'km', 'clock')).toBe('5:21');
    expect(formatPace(5, 'km', 'clock')).toBe('5:00');
    expect(formatPace(null, 'km', 'clock')).toBe('—');
    expect(formatPace(Number.NaN, 'km', 'decimal')).toBe('—');
    expect(paceUnit('km', 'decimal')).toBe('min/km');
    expect(paceUnit('km', 'clock')).toBe('/km');
    expect(paceUnit('mi', 'decimal')).toBe('min/mi');
    expect(paceUnit('mi', 'clock')).toBe('/mi');
  });

  it('turn into miles before they are written: 5:21 /km is 8:37 /mi', () => {
    expect(formatPace(321 / 60, 'mi', 'clock')).toBe('8:37');
    expect(formatPace(5.35, 'mi', 'decimal')).toBe((5.35 * KM_PER_MILE).toFixed(2));
  });

  it('as a clock, are the decimal pace to the nearest second', () => {
    fc.assert(
      fc.property(fc.integer({ min: 60, max: 3599 }), (seconds) => {
        const [minutes, secs] = formatPace(seconds / 60, 'km', 'clock')
          .split(':')
          .map(Number);
        expect(minutes! * 60 + secs!).toBe(seconds);
        expect(secs).toBeLessThan(60);
      }),
      { numRuns: 200 },
    );
  });

  it('as a clock, show hours past an hour', () => {
    expect(formatClock(61.5)).toBe('1:01:30');
    expect(formatClock(0.5)).toBe('0:30');
  });
});

describe('numbers and times', () => {
  it('shows two decimals, never NaN', () => {
    expect(formatNumber(12.345)).toBe('12.35');
    expect(formatNumber(5)).toBe('5.00');
    expect(formatNumber(null)).toBe('—');
    expect(formatNumber(Number.NaN)).toBe('—');
  });

  it('writes a stored number whole, with the decimal separator of the language', () => {
    expect(exactDecimal(5.2)).toBe('5.2');
    expect(exactDecimal(10.125)).toBe('10.125');
    setNumberLanguage('de');
    try {
      expect(exactDecimal(5.2)).toBe('5,2');
      expect(exactDecimal(42)).toBe('42');
    } finally {
      setNumberLanguage('en');
    }
  });

  it('counts in words', () => {
    expect(formatCount(1, 'run')).toBe('1 run');
    expect(formatCount(0, 'run')).toBe('0 runs');
    expect(formatCount(1500, 'day')).toBe('1,500 days');
    expect(formatCount(2, 'match', 'matches')).toBe('2 matches');
  });

  it('pads time parts with zeros and joins them as HH:MM:SS', () => {
    expect(padTimePart('5')).toBe('05');
    expect(padTimePart('')).toBe('00');
    expect(joinTime('1', '2', '3')).toBe('01:02:03');
    expect(splitTime('01:05:09')).toEqual({ hours: '01', minutes: '05', seconds: '09' });
  });
});
