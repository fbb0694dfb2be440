import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loopTrack } from '../../../../core/tracks/test-tracks.js';
import { toasts } from '../../../components/toast/toast-store';
import { tokenStorage } from '../../../lib/token-storage';
import { captureDownloads, fileResponse } from '../../../test/downloads';
import { mockFetch, type MockReply } from '../../../test/fetch-mock';
import { currentPath, renderWithApp } from '../../../test/render';
import { analysedTrack, smallTrack, trackDisplay } from '../../../test/track-fixtures';
import type { RouteMapProps } from './map-types';
import { decodeRoute, routeLine, spotOnRoute } from './route-geometry';
import type { TrackChartProps } from './track-chart-types';
import { TrackSections } from './track-sections';

// Chart.js and Leaflet draw nothing in jsdom: stand-ins show what the section hands them. A chart
// reports the point at the pointer's x as its hover, as Chart.js's onHover does.
vi.mock('./track-chart', () => ({
  default: ({ label, y, spot, onSpot }: TrackChartProps) => (
    <canvas
      role="img"
      aria-label={label}
      data-points={y.length}
      data-spot={spot ?? ''}
      onMouseMove={(event) => onSpot(event.clientX)}
      onMouseLeave={() => onSpot(null)}
    />
  ),
}));
vi.mock('./route-map', () => ({
  default: ({ spot, tiles, points }: RouteMapProps) => (
    <div
      role="region"
      aria-label="Route map"
      data-points={points.length}
      data-spot={spot ? spot.join(',') : ''}
      data-tiles={tiles?.tile_url ?? 'none'}
    />
  ),
}));

const TILES = { tile_url: 'https://tiles.example/{z}/{x}/{y}.png', attribution: '© Example' };

function serve(track: Parameters<typeof mockFetch>[0][string], map: typeof TILES | null = TILES) {
  return mockFetch({
    'GET /api/v1/entry/7/track': track,
    'GET /api/v1/app-config': { body: { demo_mode: false, demo_login: null, map } },
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('TrackSections', () => {
  it('shows a loading state, then the map, the charts, the tables and the files of a full track', async () => {
    serve({ body: { track: smallTrack() } });
    renderWithApp(<TrackSections entryId={7} display={trackDisplay('km')} />);
    expect(screen.getByText('Loading the recorded track…')).toHaveAttribute('role', 'status');
    const map = await screen.findByRole('region', { name: 'Route map' });
    expect(map).toHaveAttribute('data-tiles', TILES.tile_url);
    expect(map).toHaveAttribute('data-points', '3');
    for (const name of ['Pace', 'Elevation', 'Heart rate']) {
      expect(await screen.findByRole('img', { name })).toBeInTheDocument();
    }
    for (const name of ['Splits', 'Laps', 'Best efforts', 'Heart-rate zones']) {
      expect(screen.getByRole('table', { name })).toBeInTheDocument();
    }
    expect(screen.getByText('From the elevation of the track (3 m steps)')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download original file' })).toHaveAttribute(
      'href',
      '/api/v1/entry/7/original',
    );
    expect(screen.getByRole('link', { name: 'Download GPX' })).toHaveAttribute('href', '/api/v1/entry/7/track.gpx');
  });

  it('shows what the page hands it right after the route map, before the charts and tables', async () => {
    serve({ body: { track: smallTrack() } });
    renderWithApp(<TrackSections entryId={7} display={trackDisplay('km')} afterMap={<p>What the runner wrote</p>} />);
    // Shown while the track loads too, and kept in place once it is there.
    expect(screen.getByText('What the runner wrote')).toBeInTheDocument();
    const map = await screen.findByRole('region', { name: 'Route map' });
    const words = screen.getByText('What the runner wrote');
    const splits = screen.getByRole('table', { name: 'Splits' });
    const pace = await screen.findByRole('img', { name: 'Pace' });
    expect(map.compareDocumentPosition(words) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(words.compareDocumentPosition(pace) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(words.compareDocumentPosition(splits) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('draws the map without tiles when the server turns them off', async () => {
    serve({ body: { track: smallTrack() } }, null);
    renderWithApp(<TrackSections entryId={7} display={trackDisplay('km')} />);
    expect(await screen.findByRole('region', { name: 'Route map' })).toHaveAttribute('data-tiles', 'none');
  });

  it('shows nothing for a run without a track, and no error', async () => {
    const calls = serve({ status: 404, body: { message: 'This run has no track.' } });
    const { container } = renderWithApp(<TrackSections entryId={7} display={trackDisplay('km')} />);
    await waitFor(() => expect(screen.queryByText('Loading the recorded track…')).not.toBeInTheDocument());
    expect(calls.map((call) => call.path)).toEqual(['/api/v1/entry/7/track']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(toasts.getSnapshot()).toEqual([]);
    expect(container.querySelector('.card, table, canvas')).toBeNull();
  });

  it('says when the track cannot be loaded, and loads it again on request', async () => {
    let reply: MockReply = { status: 500, body: { message: 'Server Error' } };
    serve(() => reply);
    renderWithApp(<TrackSections entryId={7} display={trackDisplay('km')} />);
    const alert = await screen.findByText('The recorded track of this run could not be loaded.');
    reply = { body: { track: smallTrack() } };
    await userEvent.click(
      within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Try again' }),
    );
    expect(await screen.findByRole('table', { name: 'Splits' })).toBeInTheDocument();
  });

  it('refuses an answer that breaks the contract with the error state', async () => {
    serve({ body: { track: { ...smallTrack(), splits: null } } });
    renderWithApp(<TrackSections entryId={7} display={trackDisplay('km')} />);
    expect(await screen.findByText('The recorded track of this run could not be loaded.')).toBeInTheDocument();
  });

  it('shares the hover: a chart’s point shows on the other charts and moves the map’s marker', async () => {
    const track = analysedTrack(loopTrack({ seconds: 900 }));
    serve({ body: { track } });
    renderWithApp(<TrackSections entryId={7} display={trackDisplay('km')} />);
    // The map and the charts are drawn one per task (InTurn): each is awaited.
    const pace = await screen.findByRole('img', { name: 'Pace' });
    const elevation = await screen.findByRole('img', { name: 'Elevation' });
    const heartRate = await screen.findByRole('img', { name: 'Heart rate' });
    const map = await screen.findByRole('region', { name: 'Route map' });
    expect(map).toHaveAttribute('data-spot', '');

    const line = routeLine(decodeRoute(track.route!));
    fireEvent.mouseMove(pace, { clientX: 300 });
    for (const chart of [pace, elevation, heartRate]) expect(chart).toHaveAttribute('data-spot', '300');
    expect(map).toHaveAttribute('data-spot', spotOnRoute(line, track.series!.distance, 300)!.join(','));

    fireEvent.mouseMove(heartRate, { clientX: 720 });
    expect(pace).toHaveAttribute('data-spot', '720');
    expect(map).toHaveAttribute('data-spot', spotOnRoute(line, track.series!.distance, 720)!.join(','));

    fireEvent.mouseLeave(heartRate);
    for (const chart of [pace, elevation, heartRate]) expect(chart).toHaveAttribute('data-spot', '');
    expect(map).toHaveAttribute('data-spot', '');
  });

  it('follows a change of units', async () => {
    serve({ body: { track: smallTrack() } });
    function Switchable() {
      const [units, setUnits] = useState<'km' | 'mi'>('km');
      return (
        <>
          <button type="button" onClick={() => setUnits('mi')}>
            Miles
          </button>
          <TrackSections entryId={7} display={trackDisplay(units)} />
        </>
      );
    }
    renderWithApp(<Switchable />);
    const rows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1, -1);
    const kmTable = await screen.findByRole('table', { name: 'Splits' });
    expect(rows(kmTable)).toHaveLength(3);
    expect(screen.getByRole('heading', { name: 'Splits per kilometre' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Miles' }));
    const miTable = screen.getByRole('table', { name: 'Splits' });
    expect(rows(miTable)).toHaveLength(2);
    expect(within(miTable).getByRole('columnheader', { name: 'Pace (min/mi)' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Splits per mile' })).toBeInTheDocument();
  });

  it('leaves out what a track without positions, elevation or heart rate cannot show', async () => {
    serve({ body: { track: analysedTrack(loopTrack({ positions: false, elevation: false, heartRate: false })) } });
    renderWithApp(<TrackSections entryId={7} display={trackDisplay('km')} />);
    expect(await screen.findByRole('img', { name: 'Pace' })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Elevation' })).not.toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Heart rate' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Route map' })).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Heart-rate zones' })).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Laps' })).not.toBeInTheDocument();
    const splits = screen.getByRole('table', { name: 'Splits' });
    expect(within(splits).queryByRole('columnheader', { name: /Heart rate|Elevation/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Download GPX' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download original file' })).toBeInTheDocument();
  });

  it('shows the map and the heart rate of a track without distances, and no empty tables', async () => {
    const track = smallTrack({
      has: { distance: false, position: true, elevation: false, heart_rate: true, cadence: false },
      series: null,
      splits: { km: [], mi: [] },
      best_efforts: [],
      laps: [],
      elevation: null,
    });
    serve({ body: { track } });
    renderWithApp(<TrackSections entryId={7} display={trackDisplay('km')} />);
    expect(await screen.findByRole('region', { name: 'Route map' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Heart-rate zones' })).toBeInTheDocument();
    expect(screen.queryAllByRole('img')).toEqual([]);
    for (const name of ['Splits', 'Laps', 'Best efforts']) {
      expect(screen.queryByRole('table', { name })).not.toBeInTheDocument();
    }
  });

  it('explains an empty list of best efforts instead of showing an empty table', async () => {
    serve({ body: { track: smallTrack({ best_efforts: [] }) } });
    renderWithApp(<TrackSections entryId={7} display={trackDisplay('km')} />);
    expect(await screen.findByText(/covers no standard distance/)).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Best efforts' })).not.toBeInTheDocument();
  });

  it('downloads a file with the token instead of following its link', async () => {
    tokenStorage.set('runner-token');
    const saved = captureDownloads();
    serve({ body: { track: smallTrack() } });
    const jsonFetch = globalThis.fetch;
    const fileRequests: { url: string; headers: unknown }[] = [];
    vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
      if (!input.endsWith('/track.gpx')) return jsonFetch(input, init);
      fileRequests.push({ url: input, headers: init?.headers });
      return fileResponse('<gpx></gpx>', 'attachment; filename="Morning run.gpx"');
    });
    renderWithApp(<TrackSections entryId={7} display={trackDisplay('km')} />, {
      path: '/entry/:id',
      route: '/entry/7',
    });
    const link = await screen.findByRole('link', { name: 'Download GPX' });
    // fireEvent returns false when the handler prevented the default (following the link).
    expect(fireEvent.click(link)).toBe(false);
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(fileRequests).toEqual([
      { url: '/api/v1/entry/7/track.gpx', headers: { Authorization: 'Bearer runner-token' } },
    ]);
    expect(saved[0]!.name).toBe('Morning run.gpx');
    await expect(saved[0]!.text()).resolves.toBe('<gpx></gpx>');
    expect(currentPath()).toBe('/entry/7');
  });

  it('says when the original file is not kept', async () => {
    captureDownloads();
    mockFetch({
      'GET /api/v1/entry/7/track': { body: { track: smallTrack() } },
      'GET /api/v1/app-config': { body: { demo_mode: false, demo_login: null, map: null } },
      'GET /api/v1/entry/7/original': { status: 404, body: { message: 'Not found.' } },
    });
    renderWithApp(<TrackSections entryId={7} display={trackDisplay('km')} />);
    fireEvent.click(await screen.findByRole('link', { name: 'Download original file' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The original file of this run is not kept');
  });
});
