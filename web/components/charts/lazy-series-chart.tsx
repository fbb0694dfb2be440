import { lazy, Suspense } from 'react';
import type { SeriesChartProps } from './chart-types';

const SeriesChart = lazy(() => import('./series-chart'));

/** Loads Chart.js only when the chart is on screen; a placeholder of the same height until then. */
export function LazySeriesChart({ height, ...props }: SeriesChartProps & { height: number }) {
  return (
    <div className="chart-box" style={{ height }}>
      <Suspense fallback={<div className="chart-placeholder" style={{ height }} aria-hidden="true" />}>
        <SeriesChart {...props} />
      </Suspense>
    </div>
  );
}
