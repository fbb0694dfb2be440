import { lazy } from 'react';
import type { SeriesChartProps } from './chart-types';
import { WhenOnScreen } from './when-on-screen';

const SeriesChart = lazy(() => import('./series-chart'));

/** Loads Chart.js only when the chart is on screen; a placeholder of the same height until then. */
export function LazySeriesChart({ height, ...props }: SeriesChartProps & { height: number }) {
  return (
    <div className="chart-box" style={{ height }}>
      <WhenOnScreen height={height}>
        <SeriesChart {...props} />
      </WhenOnScreen>
    </div>
  );
}
