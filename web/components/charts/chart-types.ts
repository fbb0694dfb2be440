export interface ChartPoint {
  label: string;
  /** null leaves a gap (a day without runs). */
  speed: number | null;
  distance: number | null;
}

export interface Series {
  label: string;
  /** One value per label; null leaves a gap. */
  values: readonly (number | null)[];
  color: string;
}

export interface SeriesChartProps {
  kind: 'line' | 'bar';
  labels: readonly string[];
  series: readonly Series[];
  /** What the chart shows, for screen readers. */
  label: string;
  yTitle?: string;
  /** A time axis in minutes, faster (lower) on top. */
  reverse?: boolean;
}

/** The units of the chart's values, e.g. `{ speed: 'mph', distance: 'mi' }`. */
export interface ChartLabels {
  speed: string;
  distance: string;
}
