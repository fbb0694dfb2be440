/**
 * A small map of a route (a list of routes shows one per route): its line, on the server's tiles or
 * on a plain background where tiles are off or cannot load.
 */
import { useMemo } from 'react';
import type { Bounds } from '../../../../core/tracks/route.js';
import { useMapConfig } from '../api/get-map-config';
import { LazyRouteMap } from './lazy-maps';
import { decodeRoute, type LatLon } from './route-geometry';

export function boundsOfPoints(points: readonly LatLon[]): Bounds | null {
  if (points.length === 0) return null;
  let [south, west] = points[0]!;
  let [north, east] = points[0]!;
  for (const [lat, lon] of points) {
    south = Math.min(south, lat);
    north = Math.max(north, lat);
    west = Math.min(west, lon);
    east = Math.max(east, lon);
  }
  return [
    [south, west],
    [north, east],
  ];
}

export function RouteThumbnail({ polyline, label }: { polyline: string; label: string }) {
  const tiles = useMapConfig();
  const points = useMemo(() => decodeRoute(polyline), [polyline]);
  const bounds = useMemo(() => boundsOfPoints(points), [points]);
  if (!bounds || tiles.isPending)
    return <div className="track-map track-map-small chart-placeholder" aria-hidden="true" />;
  return <LazyRouteMap points={points} bounds={bounds} tiles={tiles.data ?? null} spot={null} label={label} small />;
}
