import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../lib/token-storage';
import { mockFetch } from '../../test/fetch-mock';
import { makeEntry, makeUser, paged } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';

const goal = {
  id: 5,
  period: 'week',
  metric: 'distance',
  target: 40,
  period_start: '2026-03-16',
  period_end: '2026-03-22',
  progress: 10,
  remaining: 30,
  per_day_needed: 6,
  achieved: false,
  history: [],
};

describe('the goals page', () => {
  it("lists the runs of a goal's period when opened, each opening its page", async () => {
    window.localStorage.setItem(TOKEN_KEY, 'token');
    const calls = mockFetch({
      'GET /api/v1/user/me': { body: makeUser() },
      'GET /api/v1/goals': { body: { goals: [goal] } },
      'GET /api/v1/entry': {
        body: {
          entries: paged([makeEntry({ id: 31, date: '2026-03-17', distance: 10, time: '00:50:00' })]),
          summary: { runs: 1, distance: 10, seconds: 3000, avg_pace: 5 },
        },
      },
    });
    renderRoutes('/goals');
    const summary = await screen.findByText('Runs of this week', {}, { timeout: 5000 });
    expect(calls.some((call) => call.path === '/api/v1/entry')).toBe(false);
    await userEvent.click(summary);
    expect(await screen.findByRole('link', { name: '03/17/2026' })).toHaveAttribute('href', '/entry/31');
    const query = new URL(calls.find((call) => call.path === '/api/v1/entry')!.url, 'http://localhost').searchParams;
    expect([query.get('dateFrom'), query.get('dateTo')]).toEqual(['2026-03-16', '2026-03-22']);
  });
});
