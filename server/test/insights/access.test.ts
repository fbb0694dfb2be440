/**
 * Insights (CONTRACT.md §10) through the API: for signed-in runners only, a bad date or year
 * refused with a sentence, a runner without runs, and a worked example nobody else sees. The
 * property test against a brute-force computation is in insights/insights.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Calendar, Load, RecordRow, YearReview } from '../../../core/insights.js';
import {
  call,
  createEntry,
  createTestApp,
  expectError,
  expectValidation,
  registerUser,
  UNAUTHENTICATED,
  type TestApp,
  insightOf,
} from '../helpers.js';

const PATHS = [
  '/api/v1/insights/records',
  '/api/v1/insights/predictions',
  '/api/v1/insights/load',
  '/api/v1/insights/streaks',
  '/api/v1/insights/calendar',
  '/api/v1/insights/year',
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { now: '2026-03-18T12:00:00Z' });
});
afterAll(async () => t?.close());

const get = <T>(token: string, path: string) => insightOf<T>(t.app, token, path);

describe('insights: access and input', () => {
  it('are for signed-in runners only', async () => {
    for (const path of PATHS) expect(expectError(await call(t.app, 'GET', path), 401)).toEqual(UNAUTHENTICATED);
  });

  it('refuse a bad date or year with a sentence', async () => {
    const { token } = await registerUser(t.app);
    const bad = (path: string) => call(t.app, 'GET', path, { token });
    expectValidation(
      await bad('/api/v1/insights/load?date=2026-02-30'),
      'date',
      'The date must be a real date in the format YYYY-MM-DD.',
    );
    expectValidation(await bad('/api/v1/insights/load?date=1899-12-31'), 'date');
    expectValidation(await bad('/api/v1/insights/calendar?year=abc'), 'year', 'The year must be an integer.');
    expectValidation(await bad('/api/v1/insights/year?year=2101'), 'year');
  });

  it('answer a runner without runs with empty insights', async () => {
    const { token } = await registerUser(t.app);
    expect(await get(token, 'records')).toEqual({ records: [] });
    expect(await get(token, 'predictions')).toEqual({ predictions: null });
    expect(await get(token, 'streaks')).toEqual({
      streaks: { current_days: 0, longest_days: 0, current_weeks: 0, longest_weeks: 0 },
    });
    expect(await get(token, 'calendar')).toEqual({ calendar: { year: 2026, days: [] } });
    const { year } = await get<{ year: YearReview }>(token, 'year');
    expect(year).toMatchObject({ year: 2026, runs: 0, avg_pace: null, longest: null, fastest: null, records: [] });
    const { load } = await get<{ load: Load }>(token, 'load');
    expect(load).toMatchObject({ date: '2026-03-18', acute: 0, acwr: null, warnings: [] });
  });

  it('count a 5.1 km run in 25:30 for 5k at 25:00, and show nobody else the run', async () => {
    const runner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const entry = await createEntry(t.app, runner.token, { date: '2026-03-10', distance: 5.1, time: '00:25:30' });
    const { records } = await get<{ records: RecordRow[] }>(runner.token, 'records');
    expect(records).toEqual([
      {
        key: '5k',
        distance: 5,
        time: '00:25:00',
        pace: 5,
        date: '2026-03-10',
        entry_id: entry.id,
        source: 'run',
        progression: [{ date: '2026-03-10', time: '00:25:00', entry_id: entry.id }],
      },
    ]);
    expect(await get(other.token, 'records')).toEqual({ records: [] });
    expect(await get(other.token, 'predictions')).toEqual({ predictions: null });
    expect((await get<{ calendar: Calendar }>(other.token, 'calendar')).calendar.days).toEqual([]);
  });
});
