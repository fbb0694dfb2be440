import { act, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bounds } from '../../../../core/tracks/route.js';
import RouteMap from './route-map';
import type { LatLon } from './route-geometry';

const points: LatLon[] = [
  [51.5, -0.12],
  [51.502, -0.115],
  [51.505, -0.11],
];
const bounds: Bounds = [
  [51.5, -0.12],
  [51.505, -0.11],
];
const tiles = { tile_url: 'https://tiles.example/{z}/{x}/{y}.png', attribution: '© Example <b>contributors</b>' };

/** The vector shapes Leaflet drew over the map (the route, then the marker when shown). */
const shapes = (container: HTMLElement) => [...container.querySelectorAll('.leaflet-overlay-pane path')];

// jsdom lays nothing out: give maps the size a browser would, so that Leaflet draws into them.
const sizes = ['clientWidth', 'clientHeight'] as const;
beforeAll(() => {
  for (const size of sizes) {
    Object.defineProperty(HTMLElement.prototype, size, {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('leaflet-container') ? 400 : 0;
      },
    });
  }
});
afterAll(() => {
  for (const size of sizes) Reflect.deleteProperty(HTMLElement.prototype, size);
});

afterEach(() => {
  document.documentElement.removeAttribute('data-bs-theme');
  document.documentElement.removeAttribute('style');
});

describe('RouteMap', () => {
  it('draws the route over the configured tiles, credited as the server writes it', () => {
    const { container } = render(<RouteMap points={points} bounds={bounds} tiles={tiles} spot={null} />);
    const map = screen.getByRole('region', { name: 'Route map' });
    // Focusable, so arrow keys pan and +/- zoom; the zoom buttons are buttons.
    expect(map).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('button', { name: 'Zoom in' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Zoom out' })).toBeInTheDocument();
    const [route, ...others] = shapes(container);
    expect(others).toEqual([]);
    expect(route).toHaveAttribute('stroke', '#d9480f');
    expect(route!.getAttribute('d')).toMatch(/^M[\d.-]+ [\d.-]+L/);
    const tileSources = [...container.querySelectorAll('.leaflet-tile-pane img')].map((img) => img.getAttribute('src'));
    expect(tileSources.length).toBeGreaterThan(0);
    for (const source of tileSources) expect(source).toMatch(/^https:\/\/tiles\.example\/\d+\/\d+\/\d+\.png$/);
    const attribution = container.querySelector('.leaflet-control-attribution')!;
    expect(attribution.textContent).toContain('© Example <b>contributors</b>');
    expect(attribution.querySelector('b')).toBeNull();
  });

  it('draws the route on a plain background without tiles', () => {
    const { container } = render(<RouteMap points={points} bounds={bounds} tiles={null} spot={null} />);
    expect(container.querySelector('.leaflet-tile-pane img')).toBeNull();
    expect(shapes(container)).toHaveLength(1);
    expect(shapes(container)[0]!.getAttribute('d')).toMatch(/^M[\d.-]+ [\d.-]+L/);
  });

  it('shows, moves and hides the marker with the spot', () => {
    const { container, rerender } = render(<RouteMap points={points} bounds={bounds} tiles={null} spot={null} />);
    rerender(<RouteMap points={points} bounds={bounds} tiles={null} spot={points[0]!} />);
    expect(shapes(container)).toHaveLength(2);
    const first = shapes(container)[1]!.getAttribute('d');
    rerender(<RouteMap points={points} bounds={bounds} tiles={null} spot={points[2]!} />);
    expect(shapes(container)).toHaveLength(2);
    expect(shapes(container)[1]!.getAttribute('d')).not.toBe(first);
    rerender(<RouteMap points={points} bounds={bounds} tiles={null} spot={null} />);
    expect(shapes(container)).toHaveLength(1);
  });

  it('redraws the route in the colours of a new theme', async () => {
    const { container } = render(<RouteMap points={points} bounds={bounds} tiles={null} spot={null} />);
    await act(async () => {
      document.documentElement.style.setProperty('--rt-route', '#ffa94d');
      document.documentElement.setAttribute('data-bs-theme', 'dark');
      await Promise.resolve();
    });
    expect(shapes(container)[0]).toHaveAttribute('stroke', '#ffa94d');
  });

  it('removes the map when it leaves the page', () => {
    const { container, unmount } = render(<RouteMap points={points} bounds={bounds} tiles={null} spot={null} />);
    const region = screen.getByRole('region', { name: 'Route map' });
    expect(region.classList.contains('leaflet-container')).toBe(true);
    unmount();
    expect(container.innerHTML).toBe('');
  });
});
