import type { Bounds } from '../../../../core/tracks/route.js';
import type { MapConfig, RouteRun } from '../../../../core/tracks/schemas.js';
import type { LatLon } from './route-geometry';

export interface RouteMapProps {
  /** The run's route, decoded. */
  points: LatLon[];
  bounds: Bounds;
  /** The server's tiles; null draws the route on a plain background. */
  tiles: MapConfig | null;
  /** Where the marker stands (the charts' hover), or null to hide it. */
  spot: LatLon | null;
  /** The map's accessible name, where a page shows several ("Route map" otherwise). */
  label?: string | undefined;
  /** A small map, as in a list of routes. */
  small?: boolean | undefined;
  /** A stretch of the route to draw strong on top (a segment being marked), or null. */
  highlight?: LatLon[] | null | undefined;
}

export interface RoutesMapProps {
  runs: RouteRun[];
  /** Every run's line (clickable), or a heat map where runs that repeat glow. */
  mode?: 'lines' | 'heat';
  bounds: Bounds;
  tiles: MapConfig | null;
  /** The text that names a run under the pointer (its date and distance). */
  describe: (run: RouteRun) => string;
  /** A click on a run's line. */
  onOpen: (entryId: number) => void;
}
