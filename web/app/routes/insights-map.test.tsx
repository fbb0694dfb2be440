import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RoutesMapProps } from '../../features/tracks/components/map-types';
import { mockFetch, type MockRequest } from '../../test/fetch-mock';
import { currentPath, renderWithApp } from '../../test/render';
import { routesOf } from '../../test/track-fixtures';
import { Component as InsightsMap } from './insights-map';

// Leaflet's canvas draws nothing in jsdom: a stand-in lists the runs it is given, each clickable as a line is.
vi.mock('../../features/tracks/components/routes-map', () => ({
  default: ({ runs, describe, onOpen, tiles, mode }: RoutesMapProps) => (
    <div role="region" aria-label="Map of every run" data-tiles={tiles?.tile_url ?? 'none'} data-mode={mode}>
      {runs.map((run) => (
        <button key={run.entry_id} type="button" onClick={() => onOpen(run.entry_id)}>
          {describe(run)}
        </button>
      ))}
    </div>
  ),
}));

const ALL = routesOf(['2023-03-04', '2023-09-10', '2024-05-06']);
const BY_YEAR: Record<string, ReturnType<typeof routesOf>> = {
  '2023': routesOf(['2023-03-04', '2023-09-10']),
  '2024': routesOf(['2024-05-06']),
};

function serve(all = ALL) {
  return mockFetch({
    'GET /api/v1/insights/routes': (request: MockRequest) => {
      const year = new URL(request.url, 'http://localhost').searchParams.get('year');
      return { body: { routes: year ? (BY_YEAR[year] ?? routesOf([])) : all } };
    },
    'GET /api/v1/app-config': { body: { demo_mode: false, demo_login: null, map: null } },
  });
}

const open = (route = '/insights/map') => renderWithApp(<InsightsMap />, { path: '/insights/map', route });
const mapRuns = async () =>
  within(await screen.findByRole('region', { name: 'Map of every run' }))
    .getAllByRole('button')
    .map((button) => button.textContent);

describe('the map of every run', () => {
  it('draws every tracked run, with a year filter of the years that have some', async () => {
    serve();
    open();
    expect(await mapRuns()).toEqual(['03/04/2023: 5.00 km', '09/10/2023: 5.50 km', '05/06/2024: 6.00 km']);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Map of every run');
    const year = screen.getByRole('combobox', { name: 'Year' });
    expect(
      within(year)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All years', '2024', '2023']);
    expect(screen.getByText('3 runs, 16.50 km')).toBeInTheDocument();
  });

  it('shows one year when chosen, in the address too, and all years again', async () => {
    const calls = serve();
    open();
    await mapRuns();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Year' }), '2023');
    await waitFor(() => expect(currentPath()).toBe('/insights/map?year=2023'));
    await waitFor(async () => expect(await mapRuns()).toEqual(['03/04/2023: 5.00 km', '09/10/2023: 5.50 km']));
    expect(calls.map((call) => call.url)).toContain('/api/v1/insights/routes?year=2023');
    expect(screen.getByText('2 runs, 10.50 km')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Year' }), '');
    await waitFor(() => expect(currentPath()).toBe('/insights/map'));
    await waitFor(async () => expect(await mapRuns()).toHaveLength(3));
  });

  it('opens on the year of the address, and says when that year has no tracked runs', async () => {
    serve();
    open('/insights/map?year=2019');
    expect(await screen.findByText('No tracked runs in 2019.')).toBeInTheDocument();
    const year = screen.getByRole('combobox', { name: 'Year' });
    expect(year).toHaveValue('2019');
    await waitFor(() =>
      expect(
        within(year)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['All years', '2024', '2023', '2019']),
    );
  });

  it('opens the run whose line is clicked', async () => {
    serve();
    open();
    await mapRuns();
    await userEvent.click(screen.getByRole('button', { name: '09/10/2023: 5.50 km' }));
    expect(currentPath()).toBe('/entry/101');
  });

  it('lists the runs as links for the keyboard, newest first, once opened', async () => {
    serve();
    open();
    await mapRuns();
    const details = screen.getByText('The runs on this map').closest('details')!;
    expect(within(details).queryAllByRole('link')).toEqual([]);
    details.open = true;
    fireEvent(details, new Event('toggle'));
    const links = await within(details).findAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['05/06/2024: 6.00 km', '/entry/102'],
      ['09/10/2023: 5.50 km', '/entry/101'],
      ['03/04/2023: 5.00 km', '/entry/100'],
    ]);
  });

  it('invites a runner without tracked runs to import watch files', async () => {
    serve(routesOf([]));
    open();
    const invitation = await screen.findByText(/Import watch files from/);
    expect(invitation).toHaveTextContent('Import watch files from Your data to see your routes here.');
    expect(within(invitation).getByRole('link', { name: 'Your data' })).toHaveAttribute('href', '/data');
    expect(screen.queryByRole('region', { name: 'Map of every run' })).not.toBeInTheDocument();
  });

  it('says when the routes cannot be loaded', async () => {
    mockFetch({
      'GET /api/v1/insights/routes': { status: 500, body: { message: 'Server Error' } },
      'GET /api/v1/app-config': { body: { demo_mode: false, demo_login: null, map: null } },
    });
    open();
    expect(await screen.findByText('Your routes could not be loaded.')).toBeInTheDocument();
  });

  it('switches between lines and the heat map', async () => {
    serve();
    open();
    const map = await screen.findByRole('region', { name: 'Map of every run' });
    const lines = screen.getByRole('radio', { name: 'Lines' });
    const heat = screen.getByRole('radio', { name: 'Heat map' });
    expect(lines).toBeChecked();
    expect(map).toHaveAttribute('data-mode', 'lines');
    await userEvent.click(heat);
    expect(heat).toBeChecked();
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Map of every run' })).toHaveAttribute('data-mode', 'heat'),
    );
    expect(screen.getByRole('group', { name: 'Show' })).toBeInTheDocument();
  });
});
