import { describe, expect, it, vi } from 'vitest';
import { routesOf } from '../../../test/track-fixtures';
import { L } from './map-setup';
import { faintRouteStyle, highlightedRouteStyle, type MapColors } from './map-styles';
import { decodeRoute } from './route-geometry';
import { drawRunLines, restyleRunLines } from './routes-layer';

const light: MapColors = { route: '#d9480f', faint: '#c2255c', ring: '#ffffff' };
const dark: MapColors = { route: '#ffa94d', faint: '#f783ac', ring: '#212529' };

function drawn(dates: string[]) {
  const group = L.layerGroup();
  const runs = routesOf(dates).runs;
  const onOpen = vi.fn();
  let colors = light;
  drawRunLines(
    group,
    runs,
    () => colors,
    () => ({ describe: (run) => `Run of ${run.date}`, onOpen }),
  );
  const lines = group.getLayers() as L.Polyline[];
  return { group, runs, lines, onOpen, setColors: (next: MapColors) => (colors = next) };
}

describe('drawRunLines', () => {
  it('draws each run as a faint line of its own route', () => {
    const { lines, runs } = drawn(['2023-04-01', '2024-05-02', '2024-06-03']);
    expect(lines).toHaveLength(3);
    lines.forEach((line, k) => {
      expect(line.options).toMatchObject(faintRouteStyle(light));
      expect(line.getLatLngs().map((point) => [(point as L.LatLng).lat, (point as L.LatLng).lng])).toEqual(
        decodeRoute(runs[k]!.polyline),
      );
    });
  });

  it('opens the run whose line is clicked', () => {
    const { lines, onOpen } = drawn(['2023-04-01', '2024-05-02']);
    lines[1]!.fire('click');
    expect(onOpen).toHaveBeenCalledWith(101);
    lines[0]!.fire('click');
    expect(onOpen).toHaveBeenLastCalledWith(100);
  });

  it('draws the hovered line strong, names its run, and lets it fade again', () => {
    const { lines } = drawn(['2023-04-01']);
    const line = lines[0]!;
    line.fire('mouseover');
    expect(line.options).toMatchObject(highlightedRouteStyle(light));
    const content = line.getTooltip()!.getContent() as (layer: L.Layer) => string;
    expect(content(line)).toBe('Run of 2023-04-01');
    line.fire('mouseout');
    expect(line.options).toMatchObject(faintRouteStyle(light));
  });

  it('replaces the lines of another year, and takes the colours of a new theme', () => {
    const { group, setColors } = drawn(['2023-04-01', '2023-05-01']);
    drawRunLines(
      group,
      routesOf(['2024-01-01']).runs,
      () => light,
      () => ({ describe: () => '', onOpen: () => {} }),
    );
    expect(group.getLayers()).toHaveLength(1);
    setColors(dark);
    restyleRunLines(group, dark);
    expect((group.getLayers()[0] as L.Polyline).options).toMatchObject(faintRouteStyle(dark));
  });
});
