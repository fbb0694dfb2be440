import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { dateInZone } from '../../../core/time.js';
import { TOKEN_KEY } from '../../lib/token-storage';
import { mockFetch, type MockRequest } from '../../test/fetch-mock';
import { makeEntry, makeUser, paged } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';

const thisYear = Number(dateInZone(new Date(), 'UTC').slice(0, 4));
const summary = { runs: 1, distance: 10, seconds: 3000, avg_pace: 5 };

function serve(firstRunDate: string | null) {
  window.localStorage.setItem(TOKEN_KEY, 'token');
  return mockFetch({
    'GET /api/v1/user/me': { body: makeUser() },
    // The oldest run first: the one the page asks for with sort=date.
    'GET /api/v1/entry': (request: MockRequest) => {
      expect(new URL(request.url, 'http://localhost').searchParams.get('sort')).toBe('date');
      return { body: { entries: paged(firstRunDate ? [makeEntry({ date: firstRunDate })] : []), summary } };
    },
    'GET /api/v1/insights/year': { status: 500, body: { message: 'Server Error' } },
    'GET /api/v1/insights/calendar': { body: { calendar: { year: thisYear, days: [] } } },
  });
}

describe('the year page', () => {
  it('offers no year before the first run', async () => {
    serve(`${thisYear - 1}-05-01`);
    renderRoutes(`/insights/year?year=${thisYear - 1}`);
    const years = await screen.findByRole('navigation', { name: 'Years' }, { timeout: 5000 });
    expect(await within(years).findByRole('link', { name: `${thisYear} →` })).toBeInTheDocument();
    expect(within(years).queryByRole('link', { name: `← ${thisYear - 2}` })).not.toBeInTheDocument();
  });

  it('offers the year before when the runs go back further', async () => {
    serve(`${thisYear - 3}-05-01`);
    renderRoutes(`/insights/year?year=${thisYear - 1}`);
    const years = await screen.findByRole('navigation', { name: 'Years' }, { timeout: 5000 });
    expect(await within(years).findByRole('link', { name: `← ${thisYear - 2}` })).toHaveAttribute(
      'href',
      `/insights/year?year=${thisYear - 2}`,
    );
  });

  it('offers no other year to a runner without runs', async () => {
    serve(null);
    renderRoutes('/insights/year');
    const years = await screen.findByRole('navigation', { name: 'Years' }, { timeout: 5000 });
    await screen.findByText('The year could not be loaded.');
    expect(within(years).queryAllByRole('link')).toEqual([]);
  });
});
