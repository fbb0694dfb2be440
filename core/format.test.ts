import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber, joinTime, padTimePart, splitTime } from './format.js';

describe('display formats', () => {
  it('shows dates as MM/DD/YYYY and "—" without one', () => {
    expect(formatDate('2026-03-07')).toBe('03/07/2026');
    expect(formatDate(null)).toBe('—');
    expect(formatDate('not a date')).toBe('—');
  });

  it('shows timestamps as MM/DD/YYYY HH:mm:ss in the given zone, with a 24-hour clock', () => {
    expect(formatDateTime('2026-01-02T03:04:05.000Z', 'UTC')).toBe('01/02/2026 03:04:05');
    expect(formatDateTime('2026-01-02T23:30:00.000Z', 'Pacific/Kiritimati')).toBe('01/03/2026 13:30:00');
    expect(formatDateTime('2026-01-02T00:00:00.000Z', 'Pacific/Pago_Pago')).toBe('01/01/2026 13:00:00');
    expect(formatDateTime('2026-06-01T00:00:00.000Z', 'UTC')).toBe('06/01/2026 00:00:00');
    expect(formatDateTime('garbage')).toBe('—');
  });

  it('shows two decimals, never NaN', () => {
    expect(formatNumber(12.345)).toBe('12.35');
    expect(formatNumber(5)).toBe('5.00');
    expect(formatNumber(null)).toBe('—');
    expect(formatNumber(Number.NaN)).toBe('—');
  });

  it('pads time parts with zeros and joins them as HH:MM:SS', () => {
    expect(padTimePart('5')).toBe('05');
    expect(padTimePart('')).toBe('00');
    expect(joinTime('1', '2', '3')).toBe('01:02:03');
    expect(splitTime('01:05:09')).toEqual({ hours: '01', minutes: '05', seconds: '09' });
  });
});
