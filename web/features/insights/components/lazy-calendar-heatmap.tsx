import { lazy, Suspense } from 'react';
import type { Calendar } from '../../../../core/insights.js';

const CalendarHeatmap = lazy(() => import('./calendar-heatmap'));

/** The heatmap arrives in its own chunk, when the year screen shows it. */
export function LazyCalendarHeatmap({ calendar }: { calendar: Calendar }) {
  return (
    <Suspense fallback={<div className="chart-placeholder" style={{ height: 120 }} aria-hidden="true" />}>
      <CalendarHeatmap calendar={calendar} />
    </Suspense>
  );
}
