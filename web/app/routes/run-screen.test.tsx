import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../lib/token-storage';
import { mockFetch } from '../../test/fetch-mock';
import { makeEntry, makeShoe, makeUser } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';

const chunkLoad = { timeout: 5000 };

function signIn(user = makeUser({ id: 5 })) {
  window.localStorage.setItem(TOKEN_KEY, 'token');
  return user;
}

const run = makeEntry({
  id: 42,
  user_id: 5,
  date: '2026-03-09',
  distance: 10,
  time: '00:53:30',
  speed: 11.21,
  pace: 5.35,
  title: 'Tempo Tuesday',
  notes: 'Windy.\nFelt good.',
  kind: 'workout',
  effort: 7,
  shoe_id: 11,
});

describe('the run page', () => {
  it("shows what every run has, in the runner's formats, with edit and back", async () => {
    const me = signIn(makeUser({ id: 5, pace_format: 'clock', date_format: 'YYYY-MM-DD' }));
    mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/entry/42': { body: { entry: run } },
      'GET /api/v1/shoes': { body: { shoes: [makeShoe({ id: 11, name: 'Pegasus 40' })] } },
    });
    renderRoutes('/entry/42');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tempo Tuesday' }, chunkLoad)).toBeInTheDocument();
    const numbers = screen.getByRole('region', { name: 'Numbers' });
    const value = (region: HTMLElement, term: string) => within(region).getByText(term).nextElementSibling?.textContent;
    expect(value(numbers, 'Date')).toBe('2026-03-09');
    expect(value(numbers, 'Distance (km)')).toBe('10');
    expect(value(numbers, 'Time')).toBe('00:53:30');
    expect(value(numbers, 'Avg. Speed (km/h)')).toBe('11.21');
    expect(value(numbers, 'Avg. Pace (/km)')).toBe('5:21');
    const about = screen.getByRole('region', { name: 'About this run' });
    expect(value(about, 'Kind')).toBe('Workout');
    expect(value(about, 'Effort')).toBe('7 of 10');
    expect(await within(about).findByText('Pegasus 40')).toBeInTheDocument();
    expect(value(about, 'Notes')).toBe('Windy.\nFelt good.');
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/entry/edit/42');
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
  });

  it('is named by its date when the run has no title, and opens the admin edit from the admin page', async () => {
    const admin = signIn(makeUser({ id: 1, role: 'admin' }));
    mockFetch({
      'GET /api/v1/user/me': { body: admin },
      'GET /api/v1/entry/42': { body: { entry: { ...run, title: null, shoe_id: 3 } } },
      'GET /api/v1/shoes': { body: { shoes: [] } },
    });
    renderRoutes('/admin/entry/42');
    expect(await screen.findByRole('heading', { level: 1, name: 'Run of 03/09/2026' }, chunkLoad)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/admin/entry/edit/42');
    expect(screen.getByText("One of the runner's shoes")).toBeInTheDocument();
  });

  it('folds away what the runner did not write into one line that leads to the form, and shows the cadence', async () => {
    const me = signIn(makeUser({ id: 5 }));
    mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/entry/42': {
        body: {
          entry: { ...run, title: null, notes: null, kind: null, effort: null, shoe_id: null, avg_cadence: 172 },
        },
      },
      'GET /api/v1/shoes': { body: { shoes: [] } },
    });
    renderRoutes('/entry/42');
    expect(await screen.findByRole('heading', { level: 1, name: 'Run of 03/09/2026' }, chunkLoad)).toBeInTheDocument();
    const numbers = screen.getByRole('region', { name: 'Numbers' });
    expect(within(numbers).getByText('Cadence (spm)').nextElementSibling?.textContent).toBe('172');
    const about = screen.getByRole('region', { name: 'About this run' });
    expect(about).toHaveTextContent('No title, kind, effort, shoe and notes yet. Add them');
    expect(within(about).getByRole('link', { name: 'Add them' })).toHaveAttribute('href', '/entry/edit/42');
    for (const placeholder of ['No title', 'Not set', 'Not rated', 'No shoe', 'No notes'])
      expect(screen.queryByText(placeholder, { exact: true })).not.toBeInTheDocument();
  });

  it('names only what is missing beside what was written, and no cadence without a track', async () => {
    const me = signIn(makeUser({ id: 5 }));
    mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/entry/42': { body: { entry: { ...run, effort: null, shoe_id: null } } },
      'GET /api/v1/shoes': { body: { shoes: [] } },
    });
    renderRoutes('/entry/42');
    const about = await screen.findByRole('region', { name: 'About this run' }, chunkLoad);
    expect(within(about).getByText('Kind').nextElementSibling?.textContent).toBe('Workout');
    expect(about).toHaveTextContent('No effort and shoe yet. Add them');
    expect(screen.queryByText('Cadence (spm)')).not.toBeInTheDocument();
  });

  it('says plainly when the run does not exist', async () => {
    const me = signIn();
    mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/entry/999': { status: 404, body: { message: 'Not found.' } },
      'GET /api/v1/shoes': { body: { shoes: [] } },
    });
    renderRoutes('/entry/999');
    expect(await screen.findByRole('heading', { level: 1, name: 'Run not found' }, chunkLoad)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the runs' })).toHaveAttribute('href', '/entries');
  });

  it('asks nothing for an address that cannot be a run', async () => {
    const me = signIn();
    const calls = mockFetch({ 'GET /api/v1/user/me': { body: me }, 'GET /api/v1/shoes': { body: { shoes: [] } } });
    renderRoutes('/entry/abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'Run not found' }, chunkLoad)).toBeInTheDocument();
    expect(calls.some((call) => call.path.startsWith('/api/v1/entry'))).toBe(false);
  });
});
