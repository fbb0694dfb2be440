/**
 * An import's cheap validation (features/imports/plain-entry.ts) accepts only what
 * EntryBodySchema accepts, and gives the very body the schema gives: checked on inputs
 * built around every rule's edges, valid and not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EntryBodySchema, MAX_NOTES_LENGTH, MAX_TITLE_LENGTH, RUN_KINDS } from '../../../core/schemas.js';
import { formatDuration } from '../../../core/time.js';
import { plainEntryBody, type EntryInput } from '../../features/imports/plain-entry.js';

const dates = fc.oneof(
  fc
    .integer({ min: -3000, max: 60_000 })
    .map((n) => new Date(Date.UTC(1900, 0, 1) + n * 86_400_000).toISOString().slice(0, 10)),
  fc.constantFrom(
    '1899-12-31',
    '1900-01-01',
    '2024-02-30',
    '2023-02-29',
    '2024-02-29',
    ' 2024-03-01',
    '2024-3-1',
    '',
    'x',
  ),
  fc.constant(undefined),
);
const distances = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 60_000 }).map((m) => m / 1000), weight: 6 },
  fc.integer({ min: -5, max: 1_000_005 }).map((m) => m / 1000),
  fc.double({ min: -1, max: 1001, noNaN: false }),
  fc.constantFrom(0.0004, 0.0005, 1000, 1000.001, Infinity, NaN),
  fc.constant(undefined),
);
const times = fc.oneof(
  { arbitrary: fc.integer({ min: 300, max: 30_000 }).map(formatDuration), weight: 6 },
  fc.integer({ min: -1, max: 400_000 }).map((s) => (s < 0 ? '-' : formatDuration(s))),
  fc.constantFrom('00:00:00', '00:60:00', '1:00:00', ' 00:10:00', ''),
  fc.constant(undefined),
);
const texts = (max: number) =>
  fc.oneof(
    { arbitrary: fc.constant(null), weight: 3 },
    fc.string({ maxLength: 8 }),
    fc.string({ unit: 'grapheme', maxLength: 6 }),
    fc.constantFrom(
      '  ',
      ' Morning run ',
      'a\tb',
      'a\nb',
      'a\u0000b',
      'a\u007fb',
      '\uD800',
      'é',
      'x'.repeat(max),
      `${'x'.repeat(max)}y`,
      ` ${'x'.repeat(max)} `,
    ),
  );
const kinds = fc.oneof(
  { arbitrary: fc.constantFrom(...RUN_KINDS, null), weight: 3 },
  fc.constantFrom('Easy', ' easy', '', 'tempo', 3),
);
const efforts = fc.oneof(
  { arbitrary: fc.constant(null), weight: 3 },
  fc.integer({ min: -1, max: 12 }),
  fc.constantFrom('1', '10', '11', '0', ' 5', '5.0', '+5', '05', 5.5, '', null),
);

describe('the cheap validation of imported runs', () => {
  it('accepts only what POST /entry accepts, with the same body', () => {
    const inputs = fc.record<EntryInput>({
      date: dates,
      distance: distances,
      time: times,
      title: texts(MAX_TITLE_LENGTH),
      notes: texts(MAX_NOTES_LENGTH),
      kind: kinds,
      effort: efforts,
    });
    let plain = 0;
    fc.assert(
      fc.property(inputs, (input) => {
        const quick = plainEntryBody(input);
        if (quick === null) return;
        plain += 1;
        const parsed = EntryBodySchema.safeParse(input);
        expect(parsed.success, JSON.stringify(input)).toBe(true);
        const { date, distance, time, title, notes, kind, effort } = parsed.data!;
        expect(quick).toEqual({ date, distance, time, title, notes, kind, effort });
      }),
      { numRuns: 5000 },
    );
    // The easy case is the common one: a good share of the inputs take it.
    expect(plain).toBeGreaterThan(200);
  });

  it('takes the usual imported run', () => {
    const run: EntryInput = {
      date: '2024-03-12',
      distance: 10.012,
      time: '00:50:01',
      title: ' Morning Run ',
      notes: 'Hilly.\nWindy.',
      kind: 'easy',
      effort: '5',
    };
    expect(plainEntryBody(run)).toEqual(EntryBodySchema.parse(run));
  });
});
