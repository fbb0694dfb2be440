/**
 * How routes are drawn, apart from the map library: the colours of the theme (tracks.css) and the
 * line styles built from them, as plain Leaflet path options.
 */
import { cssVariable } from '../../../lib/theme-values';

export interface MapColors {
  route: string;
  faint: string;
  /** The ring round the spot marker: the page's background, so the marker stands out on the line. */
  ring: string;
}

export function readMapColors(): MapColors {
  return {
    route: cssVariable('--rt-route', '#d9480f'),
    faint: cssVariable('--rt-route-faint', '#c2255c'),
    ring: cssVariable('--bs-body-bg', '#ffffff'),
  };
}

export interface LineStyle {
  color: string;
  weight: number;
  opacity: number;
}

/** One run's route on its page. */
export function routeStyle(colors: MapColors): LineStyle {
  return { color: colors.route, weight: 4, opacity: 0.9 };
}

/**
 * Every run on one map: faint enough that a street run once barely shows and one run a hundred
 * times stands out, as overlapping strokes of a translucent colour add up.
 */
export function faintRouteStyle(colors: MapColors): LineStyle {
  return { color: colors.faint, weight: 3, opacity: 0.3 };
}

/** The run under the pointer on the map of every run. */
export function highlightedRouteStyle(colors: MapColors): LineStyle {
  return { color: colors.route, weight: 5, opacity: 1 };
}

/** The spot a chart hover shows on the route. */
export function spotStyle(colors: MapColors) {
  return { radius: 7, color: colors.ring, weight: 3, fillColor: colors.route, fillOpacity: 1, interactive: false };
}

/** Text for Leaflet's attribution, which it inserts as HTML: the server's setting is shown as written. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
