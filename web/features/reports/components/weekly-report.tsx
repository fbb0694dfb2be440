import type { WeeklyReport as Report } from '../../../../core/schemas.js';
import { isoWeekOf, isoWeeksInYear } from '../../../../core/time.js';
import type { ChartPoint } from '../../../components/charts/chart-types';
import { LazyPerformanceChart } from '../../../components/charts/lazy-performance-chart';
import { Pagination } from '../../../components/pagination';
import { Panel } from '../../../components/panel';
import { useDisplay, type Display } from '../../../lib/display';
import { useWeeklyReport } from '../api/get-weekly-report';

/** Years to page through, newest first: the span of the runner's runs plus the year shown. */
export function reportYears(report: Pick<Report, 'min_year' | 'max_year'>, year: number): number[] {
  const newest = Math.max(report.max_year, year);
  const oldest = Math.min(report.min_year, year);
  return Array.from({ length: newest - oldest + 1 }, (_, index) => newest - index);
}

/**
 * Every week of the report's year up to today, oldest first: a week without runs at zero, so
 * that the chart's weeks are evenly spaced in time. Nothing for a year without runs.
 */
export function reportWeeks(report: Pick<Report, 'year' | 'data'>, today: string, display: Display): ChartPoint[] {
  if (report.data.length === 0) return [];
  const now = isoWeekOf(today);
  const weeks = report.year < now.year ? isoWeeksInYear(report.year) : report.year === now.year ? now.week : 0;
  const byWeek = new Map(report.data.map((row) => [row.week, row]));
  return Array.from({ length: weeks }, (_, index) => {
    const row = byWeek.get(index + 1);
    return {
      label: `Week ${index + 1}`,
      speed: row ? display.speed(row.avg_speed) : 0,
      distance: row ? display.distance(row.avg_distance) : 0,
    };
  });
}

export function WeeklyReport({ year, onYearChange }: { year: number; onYearChange: (year: number) => void }) {
  const { data: report, isError } = useWeeklyReport(year);
  const display = useDisplay();
  if (isError) return <p className="text-danger">The report could not be loaded.</p>;
  if (!report) return null;
  const years = reportYears(report, year);
  const { distance, speed } = display.labels;

  return (
    <>
      <Pagination
        label="Report years"
        last={years.length}
        current={years.indexOf(year) + 1}
        valueAt={(position) => years[position - 1]!}
        onSelect={(position) => onYearChange(years[position - 1]!)}
        describe={(value) => `Year ${value}`}
        showSingle
      />
      <Panel title={`Speed and distance per week, ${report.year}`}>
        <LazyPerformanceChart
          points={reportWeeks(report, display.today(), display)}
          height={500}
          labels={display.labels}
          label={`Average speed (${speed}) and average distance (${distance}) per week of ${report.year}, weeks without runs at zero`}
          emptyText={`No runs in ${report.year}.`}
        />
      </Panel>
      <div className="table-responsive">
        <table className="table table-striped align-middle table-stack">
          <caption className="visually-hidden">Weekly totals and averages of {report.year}</caption>
          <thead>
            <tr>
              <th scope="col">Week</th>
              <th scope="col">Runs</th>
              <th scope="col">Total distance ({distance})</th>
              <th scope="col">Total time</th>
              <th scope="col">Avg. Speed ({speed})</th>
              <th scope="col">Avg. Distance ({distance})</th>
            </tr>
          </thead>
          <tbody>
            {report.data.length === 0 ? (
              <tr>
                <td colSpan={6} className="text-center text-body-secondary py-4">
                  No runs in {report.year}.
                </td>
              </tr>
            ) : (
              report.data.map((row) => (
                <tr key={row.week}>
                  <td data-label="Week">
                    <span>
                      <span className="text-nowrap">{display.formatDate(row.week_start)}</span> -{' '}
                      <span className="text-nowrap">{display.formatDate(row.week_end)}</span>{' '}
                      <span className="text-body-secondary text-nowrap">(week {row.week})</span>
                    </span>
                  </td>
                  <td data-label="Runs">{row.count}</td>
                  <td data-label={`Total distance (${distance})`}>{display.formatDistance(row.total_distance)}</td>
                  <td data-label="Total time">{row.total_time}</td>
                  <td data-label={`Avg. Speed (${speed})`}>{display.formatSpeed(row.avg_speed)}</td>
                  <td data-label={`Avg. Distance (${distance})`}>{display.formatDistance(row.avg_distance)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
