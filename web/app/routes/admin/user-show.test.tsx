import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../../lib/token-storage';
import { mockFetch } from '../../../test/fetch-mock';
import { makeEntry, makeUser, paged } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';

const chunkLoad = { timeout: 5000 };
const rita = makeUser({ id: 9, name: 'Rita Runner', email: 'rita@example.com' });
const summary = { runs: 42, distance: 380.25, seconds: 140_000, avg_pace: 6.14 };

describe("the admin's page of a user", () => {
  it('shows their runs, distance and last run, and leads to all their runs', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'token');
    mockFetch({
      'GET /api/v1/user/me': { body: makeUser({ id: 1, role: 'admin' }) },
      'GET /api/v1/user/9': { body: { user: rita } },
      'GET /api/v1/user/9/entries': {
        body: {
          entries: paged([makeEntry({ id: 77, user_id: 9, date: '2026-03-09', distance: 10.5, time: '00:52:30' })]),
          summary,
        },
      },
    });
    renderRoutes('/admin/user/show/9');
    const runs = await screen.findByRole('region', { name: 'Runs' }, chunkLoad);
    expect(await within(runs).findByText('42 runs')).toBeInTheDocument();
    expect(within(runs).getByText('380.25 km')).toBeInTheDocument();
    expect(within(runs).getByRole('link', { name: '03/09/2026, 10.5 km in 00:52:30' })).toHaveAttribute(
      'href',
      '/admin/entry/77',
    );
    expect(within(runs).getByRole('link', { name: 'All runs of Rita Runner' })).toHaveAttribute(
      'href',
      '/admin/user/9/entries',
    );
  });

  it("shows a manager no runs: another user's runs are the admin's to see", async () => {
    window.localStorage.setItem(TOKEN_KEY, 'token');
    const calls = mockFetch({
      'GET /api/v1/user/me': { body: makeUser({ id: 2, role: 'manager' }) },
      'GET /api/v1/user/9': { body: { user: rita } },
    });
    renderRoutes('/admin/user/show/9');
    expect(await screen.findByText('rita@example.com', {}, chunkLoad)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Runs' })).not.toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/v1/user/9/entries')).toBe(false);
  });

  it('lists all the runs of a user, with their totals, each opening the admin\u2019s run page', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'token');
    mockFetch({
      'GET /api/v1/user/me': { body: makeUser({ id: 1, role: 'admin' }) },
      'GET /api/v1/user/9': { body: { user: rita } },
      'GET /api/v1/user/9/entries': {
        body: { entries: paged([makeEntry({ id: 77, user_id: 9, date: '2026-03-09' })]), summary },
      },
    });
    renderRoutes('/admin/user/9/entries');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Runs of Rita Runner' }, chunkLoad),
    ).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: '03/09/2026' })).toHaveAttribute('href', '/admin/entry/77');
    expect(screen.getByText(/42 runs/)).toBeInTheDocument();
  });
});
