import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../../lib/token-storage';
import { mockFetch } from '../../test/fetch-mock';
import { makeEntry, makeUser } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';
import { smallTrack } from '../../test/track-fixtures';

const chunkLoad = { timeout: 5000 };
const me = makeUser({ id: 5 });

function signIn() {
  window.localStorage.setItem(TOKEN_KEY, 'token');
}

// Charts stay placeholders here (jsdom cannot lay out a chart that redraws); the browser journey draws them.
beforeEach(() => {
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});

const never = () => new Promise<never>(() => undefined);

const loop = {
  id: 9,
  name: 'Park loop',
  run_count: 3,
  distance: 5.012,
  best: { entry_id: 42, date: '2026-03-09', time: '00:24:10' },
  last_date: '2026-05-01',
  polyline: '_riyH~lVoKg^wQg^',
  matching: false,
};

describe('the routes page', { timeout: 20_000 }, () => {
  it('says it is loading, then what to do when there are no routes yet', async () => {
    signIn();
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/app-config': { body: { map: null } },
      'GET /api/v1/routes': async () => {
        await released;
        return { body: { routes: [] } };
      },
    });
    renderRoutes('/routes');
    expect(await screen.findByText('Loading your routes…', {}, chunkLoad)).toBeInTheDocument();
    release();
    expect(await screen.findByText('No routes yet.', {}, chunkLoad)).toBeInTheDocument();
    expect(screen.getByText(/Routes form by themselves/)).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Your data' })).toHaveAttribute('href', '/data');
  });

  it('says when the routes cannot be loaded', async () => {
    signIn();
    mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/routes': { status: 500, body: { message: 'Server Error' } },
    });
    renderRoutes('/routes');
    expect(await screen.findByText('Your routes could not be loaded.', {}, chunkLoad)).toBeInTheDocument();
  });

  it('lists each route with its map (drawn without tiles), runs, distance, best and last date', async () => {
    signIn();
    mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/app-config': { body: { map: null } },
      'GET /api/v1/routes': { body: { routes: [loop] } },
    });
    renderRoutes('/routes');
    const card = (await screen.findByRole('link', { name: 'Park loop' }, chunkLoad)).closest('article')!;
    expect(within(card).getByRole('link', { name: 'Park loop' })).toHaveAttribute('href', '/routes/9');
    const map = await within(card).findByRole('region', { name: 'Map of Park loop' }, chunkLoad);
    await waitFor(() => expect(map.querySelector('path')).not.toBeNull());
    const fact = (term: string) => within(card).getByText(term).nextElementSibling?.textContent;
    expect(fact('Runs')).toBe('3');
    expect(fact('Distance')).toBe('5.01 km');
    expect(fact('Best')).toBe('00:24:10 on 03/09/2026');
    expect(fact('Last run')).toBe('05/01/2026');
  });
});

describe("a route's page", { timeout: 20_000 }, () => {
  const detail = {
    ...loop,
    efforts: [
      { entry_id: 42, date: '2026-03-09', time: '00:24:10', pace: 4.82, rank: 1 },
      { entry_id: 43, date: '2025-04-01', time: '00:25:00', pace: 4.99, rank: 2 },
      { entry_id: 44, date: '2026-05-01', time: '00:25:00', pace: 4.99, rank: 2 },
    ],
  };

  it('ranks the runs fastest first and renames the route', async () => {
    signIn();
    let current = detail;
    const calls = mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/app-config': { body: { map: null } },
      'GET /api/v1/routes/9': () => ({ body: { route: current } }),
      'POST /api/v1/routes/9': ({ body }) => {
        current = { ...current, name: String(body?.name) };
        return { body: { route: current } };
      },
    });
    renderRoutes('/routes/9');
    expect(await screen.findByRole('heading', { level: 1, name: 'Park loop' }, chunkLoad)).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Runs on this route' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual(['1', '2', '2']);
    expect(within(rows[0]!).getByRole('link', { name: '03/09/2026' })).toHaveAttribute('href', '/entry/42');
    expect(screen.getByText('3 runs, 5.01 km')).toBeInTheDocument();

    const name = screen.getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'River loop{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'River loop' })).toBeInTheDocument();
    const put = calls.find((call) => call.method === 'POST' && call.path === '/api/v1/routes/9');
    expect(put?.body).toMatchObject({ _method: 'PUT', name: 'River loop' });
  });

  it('shows the server’s refusal of a name under the field', async () => {
    signIn();
    mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/app-config': { body: { map: null } },
      'GET /api/v1/routes/9': { body: { route: detail } },
      'POST /api/v1/routes/9': {
        status: 422,
        body: {
          message: 'The name may not be greater than 100 characters.',
          errors: { name: ['The name may not be greater than 100 characters.'] },
        },
      },
    });
    renderRoutes('/routes/9');
    const name = await screen.findByLabelText('Name', {}, chunkLoad);
    await userEvent.type(name, 'x{Enter}');
    expect(await screen.findAllByText('The name may not be greater than 100 characters.')).not.toHaveLength(0);
    expect(name).toHaveAttribute('aria-invalid', 'true');
  });

  it('says when the route is not the runner’s', async () => {
    signIn();
    mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/routes/77': { status: 404, body: { message: 'Not found.' } },
    });
    renderRoutes('/routes/77');
    expect(await screen.findByRole('heading', { level: 1, name: 'Route not found' }, chunkLoad)).toBeInTheDocument();
  });
});

const hill = {
  id: 3,
  name: 'Hill',
  distance_m: 850,
  effort_count: 2,
  best: { entry_id: 42, date: '2026-03-09', time: '00:03:40' },
  matching: false,
};

describe('the segments pages', { timeout: 20_000 }, () => {
  it('says what to do without segments, and shows loading and errors', async () => {
    signIn();
    mockFetch({ 'GET /api/v1/user/me': { body: me }, 'GET /api/v1/segments': never });
    const view = renderRoutes('/segments');
    expect(await screen.findByText('Loading your segments…', {}, chunkLoad)).toBeInTheDocument();
    view.unmount();
    mockFetch({ 'GET /api/v1/user/me': { body: me }, 'GET /api/v1/segments': { body: { segments: [] } } });
    const empty = renderRoutes('/segments');
    expect(await screen.findByText('No segments yet.', {}, chunkLoad)).toBeInTheDocument();
    empty.unmount();
    mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/segments': { status: 500, body: { message: 'Server Error' } },
    });
    renderRoutes('/segments');
    expect(await screen.findByText('Your segments could not be loaded.', {}, chunkLoad)).toBeInTheDocument();
  });

  it('shows a new segment as filling in and asks again until it is matched', async () => {
    signIn();
    let asked = 0;
    mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/segments': () => {
        asked++;
        return {
          body: {
            segments: [
              { ...hill, effort_count: asked > 1 ? 2 : 0, best: asked > 1 ? hill.best : null, matching: asked === 1 },
            ],
          },
        };
      },
    });
    renderRoutes('/segments');
    const table = await screen.findByRole('table', { name: 'Your segments' }, chunkLoad);
    expect(within(table).getByText('Filling in…')).toBeInTheDocument();
    await waitFor(() => expect(within(table).queryByText('Filling in…')).toBeNull(), { timeout: 4000 });
    expect(within(table).getByRole('link', { name: '00:03:40 on 03/09/2026' })).toHaveAttribute('href', '/entry/42');
    expect(within(table).getByRole('link', { name: 'Hill' })).toHaveAttribute('href', '/segments/3');
  });

  it('ranks a segment’s efforts, renames it and deletes it after asking', async () => {
    signIn();
    let current = {
      ...hill,
      efforts: [
        { entry_id: 42, date: '2026-03-09', time: '00:03:40', pace: 4.31, rank: 1 },
        { entry_id: 40, date: '2025-03-09', time: '00:03:55', pace: 4.61, rank: 2 },
      ],
    };
    const calls = mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/segments': { body: { segments: [] } },
      'GET /api/v1/segments/3': () => ({ body: { segment: current } }),
      'POST /api/v1/segments/3': ({ body }) => {
        if (body?._method === 'DELETE') return { status: 204 };
        current = { ...current, name: String(body?.name) };
        return { body: { segment: current } };
      },
    });
    renderRoutes('/segments/3');
    expect(await screen.findByRole('heading', { level: 1, name: 'Hill' }, chunkLoad)).toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Efforts on this segment' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[2]!.textContent)).toEqual(['00:03:40', '00:03:55']);

    const name = screen.getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Church hill{Enter}');
    expect(await screen.findByRole('heading', { level: 1, name: 'Church hill' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Delete the segment Church hill\?/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/segments'));
    expect(calls.some((call) => call.path === '/api/v1/segments/3' && call.body?._method === 'DELETE')).toBe(true);
  });
});

describe('the run page’s route and segments', { timeout: 20_000 }, () => {
  const run = makeEntry({ id: 42, user_id: 5, date: '2026-03-09', distance: 2.5, time: '00:12:50', has_track: true });
  const track = {
    ...smallTrack({ entry_id: 42 }),
    route: '_riyH~lVoKg^wQg^',
  };

  it('links the run’s route with its rank, lists its segments, and marks a new one by keyboard', async () => {
    signIn();
    let segmentAsked = 0;
    const calls = mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/app-config': { body: { map: null } },
      'GET /api/v1/shoes': { body: { shoes: [] } },
      'GET /api/v1/entry/42': { body: { entry: run } },
      'GET /api/v1/entry/42/track': {
        body: {
          track,
          // Beside the track (whose `route` is its line): the run's route and segments (CONTRACT.md §22).
          route: null,
          segments: [{ id: 3, name: 'Hill', time: '00:03:40', rank: 1 }],
        },
      },
      'POST /api/v1/segments': ({ body }) => ({
        status: 201,
        body: {
          segment: {
            id: 8,
            name: body?.name,
            distance_m: 1000,
            effort_count: 0,
            best: null,
            matching: true,
            efforts: [],
          },
        },
      }),
      'GET /api/v1/segments/8': () => {
        segmentAsked++;
        return {
          body: {
            segment: {
              id: 8,
              name: 'Bridge',
              distance_m: 1000,
              effort_count: 1,
              best: null,
              matching: segmentAsked < 2,
              efforts: [],
            },
          },
        };
      },
      'GET /api/v1/segments': { body: { segments: [] } },
    });
    renderRoutes('/entry/42');
    const panel = await screen.findByRole('region', { name: 'Route and segments' }, chunkLoad);
    expect(within(panel).getByText(/not on a route yet/)).toBeInTheDocument();
    const segments = within(panel).getByRole('table', { name: 'Segments on this run' });
    expect(within(segments).getByRole('link', { name: 'Hill' })).toHaveAttribute('href', '/segments/3');

    await userEvent.click(screen.getByRole('button', { name: 'Mark a segment' }));
    await userEvent.type(screen.getByLabelText('Start (km)'), '0.5');
    await userEvent.type(screen.getByLabelText('End (km)'), '1,5');
    await userEvent.type(screen.getByLabelText('Name'), 'Bridge{Enter}');
    await waitFor(() =>
      expect(calls.some((call) => call.method === 'POST' && call.path === '/api/v1/segments')).toBe(true),
    );
    const post = calls.find((call) => call.method === 'POST' && call.path === '/api/v1/segments');
    expect(post?.body).toEqual({ entry_id: 42, start_m: 500, end_m: 1500, name: 'Bridge' });
    expect(await screen.findByText('Filling in…')).toBeInTheDocument();
    expect(await screen.findByText('1 run found', {}, { timeout: 4000 })).toBeInTheDocument();
  });

  it('refuses a segment shorter than 100 m before asking the server', async () => {
    signIn();
    const calls = mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/app-config': { body: { map: null } },
      'GET /api/v1/shoes': { body: { shoes: [] } },
      'GET /api/v1/entry/42': { body: { entry: run } },
      'GET /api/v1/entry/42/track': {
        body: { track, route: { id: 9, name: 'Park loop', rank: 2, best: null }, segments: [] },
      },
    });
    renderRoutes('/entry/42');
    const panel = await screen.findByRole('region', { name: 'Route and segments' }, chunkLoad);
    expect(within(panel).getByRole('link', { name: 'Park loop' })).toHaveAttribute('href', '/routes/9');
    expect(within(panel).getByText('(rank 2)')).toBeInTheDocument();
    expect(within(panel).getByText('No segments on this run.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mark a segment' }));
    await userEvent.type(screen.getByLabelText('Start (km)'), '1');
    await userEvent.type(screen.getByLabelText('End (km)'), '1.05');
    await userEvent.type(screen.getByLabelText('Name'), 'Tiny{Enter}');
    expect(await screen.findByText('A segment is between 100 m and 50 km long.')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/v1/segments')).toBe(false);
  });
});
