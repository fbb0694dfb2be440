/** The colour of a track chart's line, from the theme's CSS variables (tracks.css). */
export type TrackChartTone = 'pace' | 'elevation' | 'heartRate';

export interface TrackChartProps {
  /** The canvas' accessible name: `Pace`, `Elevation`, `Heart rate`. */
  label: string;
  /** Distances from the start, in the runner's unit. */
  x: readonly number[];
  /** One value per distance; null leaves a gap. */
  y: readonly (number | null)[];
  tone: TrackChartTone;
  xTitle: string;
  yTitle: string;
  /** A distance of the x axis, with its unit ("2.5 km"). */
  formatX(value: number): string;
  /** A value of the y axis, without its unit (ticks). */
  formatY(value: number): string;
  /** The unit of the values, for the tooltip ("bpm"). */
  unit: string;
  /** Smaller values on top (paces: faster is higher). */
  reverse?: boolean;
  /** The y axis' bounds, when the values' own would be misleading. */
  range?: { min: number; max: number } | null;
  /** The index of the point every chart shows (the shared hover), or null. */
  spot: number | null;
  onSpot(index: number | null): void;
  /** A stretch shaded on the chart (a segment being marked), in the x axis' unit, or null. */
  selection?: { from: number; to: number | null } | null | undefined;
  /** A click on the chart picks the point under the pointer (marking a segment); none when absent. */
  onPick?: ((index: number) => void) | undefined;
}
