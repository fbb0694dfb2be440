/**
 * Every tracked run on one map (CONTRACT.md §16): faint lines on one canvas (`preferCanvas`: a
 * thousand SVG paths would make every pan slow), the run under the pointer drawn strong and named,
 * a click opening the run. Plain Leaflet driven from effects (decision 026); loaded lazily.
 */
import { useEffect, useRef } from 'react';
import { useThemeValues } from '../../../lib/theme-values';
import { createMap, fitTo, L } from './map-setup';
import { faintRouteStyle, highlightedRouteStyle, readMapColors } from './map-styles';
import type { RoutesMapProps } from './map-types';
import { decodeRoute } from './route-geometry';

export default function RoutesMap({ runs, bounds, tiles, describe, onOpen }: RoutesMapProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<{ map: L.Map; lines: L.LayerGroup<L.Polyline> } | null>(null);
  const colors = useThemeValues(readMapColors);
  const colorsRef = useRef(colors);
  const handlers = useRef({ describe, onOpen });
  useEffect(() => {
    handlers.current = { describe, onOpen };
  }, [describe, onOpen]);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    // A few pixels of tolerance: faint lines two or three pixels wide are hard to hit exactly.
    const map = createMap(container, tiles, { preferCanvas: true, renderer: L.canvas({ tolerance: 5 }) });
    mapRef.current = { map, lines: L.layerGroup<L.Polyline>().addTo(map) };
    return () => {
      mapRef.current = null;
      map.remove();
    };
  }, [tiles]);

  useEffect(() => {
    const drawn = mapRef.current;
    if (!drawn) return;
    drawn.lines.clearLayers();
    for (const run of runs) {
      const line = L.polyline(decodeRoute(run.polyline), faintRouteStyle(colorsRef.current));
      line.bindTooltip(() => handlers.current.describe(run), { sticky: true });
      line.on('mouseover', () => line.setStyle(highlightedRouteStyle(colorsRef.current)).bringToFront());
      line.on('mouseout', () => line.setStyle(faintRouteStyle(colorsRef.current)));
      line.on('click', () => handlers.current.onOpen(run.entry_id));
      drawn.lines.addLayer(line);
    }
    fitTo(drawn.map, bounds);
  }, [runs, bounds, tiles]);

  useEffect(() => {
    colorsRef.current = colors;
    mapRef.current?.lines.eachLayer((line) => (line as L.Polyline).setStyle(faintRouteStyle(colors)));
  }, [colors]);

  return <div ref={containerRef} className="routes-map" role="region" aria-label="Map of every run" />;
}
