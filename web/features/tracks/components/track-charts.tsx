import { lazy, useMemo } from 'react';
import runTexts from 'virtual:i18n/run';
import './tracks.css';
import { decimal } from '../../../../core/format.js';
import type { RunTrack } from '../../../../core/tracks/schemas.js';
import { paceIn, type Units } from '../../../../core/units.js';
import { WhenOnScreen } from '../../../components/charts/when-on-screen';
import { t, useT } from '../../../i18n/runtime';
import { paceAxisRange, smoothedPace } from './pace-series';
import type { TrackChartProps } from './track-chart-types';
import { metresIn, paceToMinPerKm, type TrackDisplay } from './track-format';

const TrackChart = lazy(() => import('./track-chart'));

/** Loads Chart.js only when a chart is on screen; a placeholder of the same height until then. */
function LazyTrackChart(props: TrackChartProps) {
  return (
    <WhenOnScreen height={180}>
      <TrackChart {...props} />
    </WhenOnScreen>
  );
}

/** A stretch of the run being chosen (metres from the track's first sample; `end_m` null until picked). */
export interface StretchMarking {
  range: { start_m: number; end_m: number | null } | null;
  /** A point picked on a chart or the map, in metres from the track's first sample. */
  onPick: (metres: number) => void;
}

/** What the charts draw, in the runner's unit: null without a series of at least two points. */
export function chartLines(track: Pick<RunTrack, 'series' | 'pauses'>, units: Units) {
  const { series } = track;
  if (!series || series.distance.length < 2) return null;
  const first = series.distance[0]!;
  const pace = smoothedPace(series, track.pauses).map((minPerKm) =>
    minPerKm === null ? null : paceIn(minPerKm, units),
  );
  return {
    x: series.distance.map((metres) => metresIn(metres - first, units)),
    pace,
    paceRange: paceAxisRange(pace),
    elevation: series.elevation,
    heartRate: series.heart_rate,
  };
}

/** A distance of an axis: at most two decimals, without trailing zeros, and its unit ("2.5 km", "2,5 km"). */
function distanceText(value: number, unit: string): string {
  return `${decimal(value, 2).replace(/[.,]?0+$/, '')} ${unit}`;
}

const wholeText = (value: number) => String(Math.round(value));

type Labels = TrackDisplay['labels'];

/**
 * The channels drawn as they come, in whole units, each where the track has it (texts read when
 * drawn). The elevation is drawn in metres for every runner; a heart rate's unit is the language's.
 */
const WHOLE_CHANNELS = [
  {
    key: 'elevation',
    label: () => t('run.charts.elevation'),
    axis: () => t('run.charts.elevationAxis'),
    tone: 'elevation',
    unit: () => 'm',
  },
  {
    key: 'heartRate',
    label: () => t('run.charts.heartRate'),
    axis: (labels: Labels) => t('run.charts.heartRateAxis', { unit: labels.heartRate }),
    tone: 'heartRate',
    unit: (labels: Labels) => labels.heartRate,
  },
] as const;

/**
 * Pace, elevation and heart rate against distance, each where the track has it. `spot` is the
 * point every chart shows; hovering a chart reports its point through `onSpot`.
 */
export function TrackCharts({
  track,
  display,
  spot,
  onSpot,
  marking = null,
}: {
  track: Pick<RunTrack, 'series' | 'pauses'>;
  display: TrackDisplay;
  spot: number | null;
  onSpot: (index: number | null) => void;
  /** A stretch being marked: shaded on every chart, a click picking its ends. */
  marking?: StretchMarking | null;
}) {
  useT(runTexts);
  // Memoised on the display's parts, not on the object: a caller may rebuild it on every render.
  const { units, formatPace } = display;
  const { distance: distanceLabel, pace: paceLabel } = display.labels;
  const lines = useMemo(() => chartLines(track, units), [track, units]);
  const formatX = useMemo(() => (value: number) => distanceText(value, distanceLabel), [distanceLabel]);
  const formatPaceTick = useMemo(
    () => (value: number) => formatPace(paceToMinPerKm(value, units)),
    [formatPace, units],
  );
  const first = track.series?.distance[0] ?? 0;
  const seriesDistance = track.series?.distance;
  const range = marking?.range ?? null;
  const selection = useMemo(
    () =>
      range
        ? { from: metresIn(range.start_m, units), to: range.end_m === null ? null : metresIn(range.end_m, units) }
        : null,
    [range, units],
  );
  const pick = marking?.onPick;
  const onPick = useMemo(
    () => (pick && seriesDistance ? (index: number) => pick((seriesDistance[index] ?? first) - first) : undefined),
    [pick, seriesDistance, first],
  );
  if (!lines) return null;
  const common = {
    x: lines.x,
    xTitle: t('run.charts.distanceAxis', { unit: distanceLabel }),
    formatX,
    spot,
    onSpot,
    selection,
    onPick,
  };
  return (
    <div className="d-grid gap-3">
      <LazyTrackChart
        {...common}
        label={t('run.charts.pace')}
        y={lines.pace}
        tone="pace"
        yTitle={t('run.charts.paceAxis', { unit: paceLabel })}
        formatY={formatPaceTick}
        unit={paceLabel}
        reverse
        range={lines.paceRange}
      />
      {WHOLE_CHANNELS.map(({ key, label, axis, tone, unit }) => {
        const y = lines[key];
        return y ? (
          <LazyTrackChart
            key={key}
            {...common}
            label={label()}
            y={y}
            tone={tone}
            yTitle={axis(display.labels)}
            formatY={wholeText}
            unit={unit(display.labels)}
          />
        ) : null;
      })}
    </div>
  );
}
