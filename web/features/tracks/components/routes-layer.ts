/**
 * The lines of the map of every run, one per run, each naming its run under the pointer, drawn
 * strong while hovered, and opening its run on a click. Apart from the component so that the
 * wiring can be checked on real Leaflet layers without a canvas.
 */
import type { RouteRun } from '../../../../core/tracks/schemas.js';
import { L } from './map-setup';
import { faintRouteStyle, highlightedRouteStyle, type MapColors } from './map-styles';
import { decodeRoute } from './route-geometry';

export interface RunLineHandlers {
  describe: (run: RouteRun) => string;
  onOpen: (entryId: number) => void;
}

/**
 * Replaces the lines of `group` with one per run. `colors` and `handlers` are read when used, so
 * that a change of theme or of the page's callbacks reaches lines already drawn.
 */
export function drawRunLines(
  group: L.LayerGroup,
  runs: readonly RouteRun[],
  colors: () => MapColors,
  handlers: () => RunLineHandlers,
): void {
  group.clearLayers();
  for (const run of runs) {
    const line = L.polyline(decodeRoute(run.polyline), faintRouteStyle(colors()));
    line.bindTooltip(() => handlers().describe(run), { sticky: true });
    line.on('mouseover', () => line.setStyle(highlightedRouteStyle(colors())).bringToFront());
    line.on('mouseout', () => line.setStyle(faintRouteStyle(colors())));
    line.on('click', () => handlers().onOpen(run.entry_id));
    group.addLayer(line);
  }
}

/** Every line back to its faint style, in the current colours. */
export function restyleRunLines(group: L.LayerGroup, colors: MapColors): void {
  group.eachLayer((layer) => (layer as L.Polyline).setStyle(faintRouteStyle(colors)));
}
