/**
 * One run's route on a map, with the marker the charts move. Plain Leaflet driven from effects
 * (decision 026): the map is created once per route and tiles, the colours follow the theme, and
 * the marker moves without redrawing anything else. Loaded lazily (lazy-maps.tsx).
 */
import { useEffect, useRef } from 'react';
import mapTexts from 'virtual:i18n/map';
import { useT } from '../../../i18n/runtime';
import { useThemeValues } from '../../../lib/theme-values';
import { createMap, fitTo, L } from './map-setup';
import { readMapColors, routeStyle, spotStyle } from './map-styles';
import type { RouteMapProps } from './map-types';

export default function RouteMap({
  points,
  bounds,
  tiles,
  spot,
  label,
  small = false,
  highlight = null,
}: RouteMapProps) {
  const t = useT(mapTexts);
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<{ map: L.Map; line: L.Polyline; marker: L.CircleMarker } | null>(null);
  const colors = useThemeValues(readMapColors);
  const colorsRef = useRef(colors);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const map = createMap(container, tiles);
    const line = L.polyline(points, { ...routeStyle(colorsRef.current), interactive: false }).addTo(map);
    const marker = L.circleMarker([0, 0], spotStyle(colorsRef.current));
    fitTo(map, bounds);
    mapRef.current = { map, line, marker };
    return () => {
      mapRef.current = null;
      map.remove();
    };
  }, [points, bounds, tiles]);

  useEffect(() => {
    colorsRef.current = colors;
    mapRef.current?.line.setStyle(routeStyle(colors));
    mapRef.current?.marker.setStyle(spotStyle(colors));
  }, [colors]);

  // The stretch being marked as a segment: a wider line over the route.
  useEffect(() => {
    const drawn = mapRef.current;
    if (!drawn || !highlight || highlight.length < 2) return;
    const stretch = L.polyline(highlight, {
      ...routeStyle(colorsRef.current),
      weight: 8,
      opacity: 0.6,
      interactive: false,
    }).addTo(drawn.map);
    return () => void stretch.remove();
  }, [highlight, points, bounds, tiles]);

  useEffect(() => {
    const drawn = mapRef.current;
    if (!drawn) return;
    if (spot) drawn.marker.setLatLng(spot).addTo(drawn.map);
    else drawn.marker.remove();
  }, [spot, points, bounds, tiles]);

  return (
    <div
      ref={containerRef}
      className={small ? 'track-map track-map-small' : 'track-map'}
      role="region"
      aria-label={label ?? t('map.routeMap')}
    />
  );
}
