import { lazy, Suspense } from 'react';
import './tracks.css';
import { InTurn } from '../../../lib/in-turn';
import type { RouteMapProps, RoutesMapProps } from './map-types';

// Leaflet loads with these, on the pages that draw a map and nowhere else (CONTRACT.md §17).
const RouteMap = lazy(() => import('./route-map'));
const RoutesMap = lazy(() => import('./routes-map'));

// A map is created in its own task, as the charts are (`InTurn`).
export function LazyRouteMap(props: RouteMapProps) {
  const placeholder = (
    <div
      className={props.small ? 'track-map track-map-small chart-placeholder' : 'track-map chart-placeholder'}
      aria-hidden="true"
    />
  );
  return (
    <Suspense fallback={placeholder}>
      <InTurn placeholder={placeholder}>
        <RouteMap {...props} />
      </InTurn>
    </Suspense>
  );
}

export function LazyRoutesMap(props: RoutesMapProps) {
  const placeholder = <div className="routes-map chart-placeholder" aria-hidden="true" />;
  return (
    <Suspense fallback={placeholder}>
      <InTurn placeholder={placeholder}>
        <RoutesMap {...props} />
      </InTurn>
    </Suspense>
  );
}
