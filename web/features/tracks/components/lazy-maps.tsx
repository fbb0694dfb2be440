import { lazy, Suspense } from 'react';
import './tracks.css';
import type { RouteMapProps, RoutesMapProps } from './map-types';

// Leaflet loads with these, on the pages that draw a map and nowhere else (CONTRACT.md §17).
const RouteMap = lazy(() => import('./route-map'));
const RoutesMap = lazy(() => import('./routes-map'));

export function LazyRouteMap(props: RouteMapProps) {
  return (
    <Suspense
      fallback={
        <div
          className={props.small ? 'track-map track-map-small chart-placeholder' : 'track-map chart-placeholder'}
          aria-hidden="true"
        />
      }
    >
      <RouteMap {...props} />
    </Suspense>
  );
}

export function LazyRoutesMap(props: RoutesMapProps) {
  return (
    <Suspense fallback={<div className="routes-map chart-placeholder" aria-hidden="true" />}>
      <RoutesMap {...props} />
    </Suspense>
  );
}
