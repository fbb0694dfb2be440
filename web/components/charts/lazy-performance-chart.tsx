import { lazy } from 'react';
import charts from 'virtual:i18n/charts';
import { useT } from '../../i18n/runtime';
import type { ChartLabels, ChartPoint } from './chart-types';
import { WhenOnScreen } from './when-on-screen';

const PerformanceChart = lazy(() => import('./performance-chart'));

interface Props {
  points: readonly ChartPoint[];
  /** Chart height in px: 250 on the dashboard, 500 on the weekly report. */
  height: number;
  /** What the chart shows, for screen readers. */
  label: string;
  emptyText?: string;
  /** The units of the values (km/h and km when absent). */
  labels?: ChartLabels;
}

/** Loads Chart.js only when a chart is on screen. */
export function LazyPerformanceChart({ points, height, label, labels, emptyText }: Props) {
  const t = useT(charts);
  if (points.length === 0) {
    return (
      <p className="text-body-secondary mb-0" style={{ minHeight: height / 2 }}>
        {emptyText ?? t('charts.performance.empty')}
      </p>
    );
  }
  return (
    <div className="chart-box" style={{ height }}>
      <WhenOnScreen height={height}>
        <PerformanceChart points={points} label={label} labels={labels} />
      </WhenOnScreen>
    </div>
  );
}
