import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../lib/token-storage';
import { mockFetch } from '../../test/fetch-mock';
import { makeEntry, makeShoe, makeUser, paged } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';

const chunkLoad = { timeout: 5000 };

describe("a shoe's page", () => {
  it('shows the shoe against its limit and lists its runs, each opening its page', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'token');
    const calls = mockFetch({
      'GET /api/v1/user/me': { body: makeUser() },
      'GET /api/v1/shoes': {
        body: { shoes: [makeShoe({ id: 11, name: 'Pegasus 40', start_km: 100, distance: 110.5, runs: 1 })] },
      },
      'GET /api/v1/shoes/11/entries': {
        body: { entries: paged([makeEntry({ id: 7, date: '2026-03-09', distance: 10.5, shoe_id: 11 })]) },
      },
    });
    renderRoutes('/shoes/11');
    expect(await screen.findByRole('heading', { level: 1, name: 'Pegasus 40' }, chunkLoad)).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Pegasus 40 distance' })).toHaveAttribute(
      'aria-valuetext',
      '110.5 km of 700 km',
    );
    const runs = screen.getByRole('region', { name: 'Runs in this shoe' });
    expect(await within(runs).findByRole('link', { name: '03/09/2026' })).toHaveAttribute('href', '/entry/7');
    expect(calls.some((call) => call.path === '/api/v1/shoes/11/entries')).toBe(true);
  });

  it('says when the shoe is not among the runner\u2019s', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'token');
    mockFetch({ 'GET /api/v1/user/me': { body: makeUser() }, 'GET /api/v1/shoes': { body: { shoes: [] } } });
    renderRoutes('/shoes/99');
    expect(await screen.findByRole('heading', { level: 1, name: 'Shoe not found' }, chunkLoad)).toBeInTheDocument();
  });
});
