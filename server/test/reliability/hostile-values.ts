/**
 * Hostile values for property tests (hostile-input.test.ts): SQL and HTML metacharacters,
 * unicode that folds, splits or hides, odd shapes of numbers and dates, and any nesting of them.
 */
import fc from 'fast-check';

const SQL = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  "1' UNION SELECT password_hash FROM users --",
  '%',
  '_',
  '%_%',
  '\\',
  "\\'",
  '/*',
  '$1',
  '?',
];
const HTML = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  'javascript:alert(1)',
  '&lt;b&gt;',
  '{{7*7}}',
  '${7*7}',
];
const UNICODE = [
  '\u0000',
  'a\u0000b',
  '\u001b[31m',
  '\u202eevil',
  '\ud800',
  '\udfff',
  '𝕏𝕐𝕫',
  '👩‍👩‍👧‍👦',
  'İstanbul',
  'ǅ',
  'ß',
  '\ufeff',
  '\u2028',
];
const SHAPES = [
  '',
  ' ',
  '\t\n',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x1F',
  '1_000',
  ' 5 ',
  '5,5',
  '-1',
  '0',
  '9'.repeat(400),
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '2026-03-18T00:00:00Z',
  '99:99:99',
  '00:00:00',
  '-01:00:00',
  '100:00:00',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '../../etc/passwd',
  'Europe/../../etc',
  'İ'.repeat(200) + '@example.com',
  'x'.repeat(256),
  'x'.repeat(5000),
];
export const HOSTILE = [...SQL, ...HTML, ...UNICODE, ...SHAPES];

export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), fc.constantFrom(...HOSTILE), fc.string({ maxLength: 10 }))
      .map((parts) => parts.join('')),
  },
);

export const { value: hostileValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.double(),
    fc.integer(),
    fc.constantFrom(0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, 5e-324, 42.195),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString'), hostileString), tie('value'), {
      maxKeys: 3,
    }),
  ),
}));

/** Content types a request may claim, right, odd and wrong. */
export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'text/plain',
  'text/html',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/vnd.api+json',
  'application/json, text/plain',
  '*/*',
  ';;;',
];

/** Printable ASCII, for header values. */
export const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});
