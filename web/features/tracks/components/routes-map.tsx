/**
 * Every tracked run on one map (CONTRACT.md §16): faint lines on one canvas (`preferCanvas`: a
 * thousand SVG paths would make every pan slow), the run under the pointer drawn strong and named,
 * a click opening the run. Plain Leaflet driven from effects (decision 026); loaded lazily.
 */
import { useEffect, useMemo, useRef } from 'react';
import mapTexts from 'virtual:i18n/map';
import { useT } from '../../../i18n/runtime';
import { useThemeValues } from '../../../lib/theme-values';
import { createMap, fitTo, L } from './map-setup';
import { readMapColors } from './map-styles';
import type { RoutesMapProps } from './map-types';
import { prepareHeat } from './heat-map';
import { HeatLayer } from './heat-layer';
import { drawRunLines, restyleRunLines } from './routes-layer';

export default function RoutesMap({ runs, bounds, tiles, describe, onOpen, mode = 'lines' }: RoutesMapProps) {
  const t = useT(mapTexts);
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<{ map: L.Map; lines: L.LayerGroup } | null>(null);
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
    mapRef.current = { map, lines: L.layerGroup().addTo(map) };
    return () => {
      mapRef.current = null;
      map.remove();
    };
  }, [tiles]);

  useEffect(() => {
    const drawn = mapRef.current;
    if (!drawn) return;
    drawRunLines(
      drawn.lines,
      runs,
      () => colorsRef.current,
      () => handlers.current,
    );
    fitTo(drawn.map, bounds);
  }, [runs, bounds, tiles]);

  // The heat map's positions are decoded and projected once per set of runs, not per zoom or pan.
  const heat = useMemo(() => (mode === 'heat' ? prepareHeat(runs.map((run) => run.polyline)) : null), [mode, runs]);
  useEffect(() => {
    const drawn = mapRef.current;
    if (!drawn || !heat) return;
    drawn.lines.remove();
    const layer = new HeatLayer(drawn.map, heat);
    return () => {
      layer.remove();
      // Back to lines, unless the map itself is gone (new tiles make a new map).
      if (mapRef.current === drawn) drawn.lines.addTo(drawn.map);
    };
  }, [heat, bounds, tiles]);

  useEffect(() => {
    colorsRef.current = colors;
    if (mapRef.current) restyleRunLines(mapRef.current.lines, colors);
  }, [colors]);

  return (
    <div ref={containerRef} className="routes-map" role="region" aria-label={t('map.everyRun')} data-mode={mode} />
  );
}
