import { formatDate } from '../../../../core/format.js';
import type { WeeklyReport as Report } from '../../../../core/schemas.js';
import { LazyPerformanceChart } from '../../../components/charts/lazy-performance-chart';
import { Pagination } from '../../../components/pagination';
import { Panel } from '../../../components/panel';
import { useDisplay } from '../../../lib/display';
import { useWeeklyReport } from '../api/get-weekly-report';

/** Years to page through, newest first: the span of the runner's runs plus the year shown. */
export function reportYears(report: Pick<Report, 'min_year' | 'max_year'>, year: number): number[] {
  const newest = Math.max(report.max_year, year);
  const oldest = Math.min(report.min_year, year);
  return Array.from({ length: newest - oldest + 1 }, (_, index) => newest - index);
}

export function WeeklyReport({ year, onYearChange }: { year: number; onYearChange: (year: number) => void }) {
  const { data: report, isError } = useWeeklyReport(year);
  const display = useDisplay();
  if (isError) return <p className="text-danger">The report could not be loaded.</p>;
  if (!report) return null;
  const points = report.chart.map(([week, speed, distance]) => ({
    label: `Week ${week}`,
    speed: display.speed(speed),
    distance: display.distance(distance),
  }));
  const years = reportYears(report, year);

  return (
    <>
      <Pagination
        label="Report years"
        items={years}
        current={year}
        onSelect={onYearChange}
        describe={(item) => `Year ${item}`}
        showSingle
      />
      <Panel title={`Speed and distance per week, ${report.year}`}>
        <LazyPerformanceChart
          points={points}
          height={500}
          labels={display.labels}
          label={`Average speed (${display.labels.speed}) and average distance (${display.labels.distance}) per week of ${report.year}`}
          emptyText={`No runs in ${report.year}.`}
        />
      </Panel>
      <div className="table-responsive">
        <table className="table table-striped align-middle">
          <caption className="visually-hidden">Weekly averages of {report.year}</caption>
          <thead>
            <tr>
              <th scope="col">Week</th>
              <th scope="col">Avg. Speed ({display.labels.speed})</th>
              <th scope="col">Avg. Distance ({display.labels.distance})</th>
            </tr>
          </thead>
          <tbody>
            {report.data.length === 0 ? (
              <tr>
                <td colSpan={3} className="text-center text-body-secondary py-4">
                  No runs in {report.year}.
                </td>
              </tr>
            ) : (
              report.data.map((row) => (
                <tr key={row.week}>
                  <td>
                    {formatDate(row.week_start)} - {formatDate(row.week_end)}{' '}
                    <span className="text-body-secondary">(week {row.week})</span>
                  </td>
                  <td>{display.formatSpeed(row.avg_speed)}</td>
                  <td>{display.formatDistance(row.avg_distance)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
