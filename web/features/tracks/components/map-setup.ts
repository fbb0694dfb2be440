/**
 * A Leaflet map as every map of the app starts: the tiles of the server's `map` setting (none, on a
 * plain background, when it is off), keyboard panning and zooming, and no animation for a runner who
 * asks for reduced motion. This module pulls in Leaflet and its stylesheet, bundled with the app, so
 * it is only imported by the lazily loaded map components.
 */
import * as L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { MapConfig } from '../../../../core/tracks/schemas.js';
import type { Bounds } from '../../../../core/tracks/route.js';
import { t } from '../../../i18n/runtime';
import { escapeHtml } from './map-styles';

export { L };

const reducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export function createMap(container: HTMLElement, tiles: MapConfig | null, options: L.MapOptions = {}): L.Map {
  const still = reducedMotion();
  const map = L.map(container, {
    zoomAnimation: !still,
    fadeAnimation: !still,
    markerZoomAnimation: !still,
    zoomControl: false,
    ...options,
  });
  // Leaflet's zoom buttons, named in the app's language (their title is also their aria-label); the
  // map components have called `useT` of the `map` texts.
  L.control.zoom({ zoomInTitle: t('map.zoomIn'), zoomOutTitle: t('map.zoomOut') }).addTo(map);
  // The credits (Leaflet's and the tiles' owner's, as the server's setting writes them) are names, not the app's text.
  map.attributionControl?.getContainer()?.setAttribute('translate', 'no');
  if (tiles) {
    // Tiles that fail to load (offline, blocked) leave the plain background; the lines stay drawn.
    L.tileLayer(tiles.tile_url, {
      attribution: escapeHtml(tiles.attribution),
      maxZoom: 19,
      referrerPolicy: 'strict-origin-when-cross-origin',
    }).addTo(map);
  }
  return map;
}

/** Shows `bounds` whole, a little inside the map's edges; a single point at street level. */
export function fitTo(map: L.Map, bounds: Bounds): void {
  const [[south, west], [north, east]] = bounds;
  if (south === north && west === east) map.setView([south, west], 16);
  else map.fitBounds(bounds, { padding: [16, 16] });
}
