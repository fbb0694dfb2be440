import reports from 'virtual:i18n/reports';
import type { WeeklyReport as Report } from '../../../../core/schemas.js';
import { isoWeekOf, isoWeeksInYear } from '../../../../core/time.js';
import type { ChartPoint } from '../../../components/charts/chart-types';
import { LazyPerformanceChart } from '../../../components/charts/lazy-performance-chart';
import { Pagination } from '../../../components/pagination';
import { Panel } from '../../../components/panel';
import { t, useT } from '../../../i18n/runtime';
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
      label: t('reports.weekly.chartWeek', { week: index + 1 }),
      speed: row ? display.speed(row.avg_speed) : 0,
      distance: row ? display.distance(row.avg_distance) : 0,
    };
  });
}

export function WeeklyReport({ year, onYearChange }: { year: number; onYearChange: (year: number) => void }) {
  const t = useT(reports);
  const { data: report, isError } = useWeeklyReport(year);
  const display = useDisplay();
  if (isError) return <p className="text-danger">{t('reports.weekly.loadError')}</p>;
  if (!report) return null;
  const years = reportYears(report, year);
  const { distance, speed } = display.labels;
  const headers = {
    week: t('reports.weekly.week'),
    runs: t('reports.weekly.runs'),
    totalDistance: t('reports.weekly.totalDistance', { unit: distance }),
    totalTime: t('reports.weekly.totalTime'),
    avgSpeed: t('reports.weekly.avgSpeed', { unit: speed }),
    avgDistance: t('reports.weekly.avgDistance', { unit: distance }),
  };

  return (
    <>
      <Pagination
        label={t('reports.weekly.years')}
        last={years.length}
        current={years.indexOf(year) + 1}
        valueAt={(position) => years[position - 1]!}
        onSelect={(position) => onYearChange(years[position - 1]!)}
        describe={(value) => t('reports.weekly.year', { year: value })}
        showSingle
      />
      <Panel title={t('reports.weekly.chartTitle', { year: report.year })}>
        <LazyPerformanceChart
          points={reportWeeks(report, display.today(), display)}
          height={500}
          labels={display.labels}
          label={t('reports.weekly.chartLabel', { speed, distance, year: report.year })}
          emptyText={t('reports.weekly.empty', { year: report.year })}
        />
      </Panel>
      <div className="table-responsive">
        <table className="table table-striped align-middle table-stack">
          <caption className="visually-hidden">{t('reports.weekly.caption', { year: report.year })}</caption>
          <thead>
            <tr>
              <th scope="col">{headers.week}</th>
              <th scope="col">{headers.runs}</th>
              <th scope="col">{headers.totalDistance}</th>
              <th scope="col">{headers.totalTime}</th>
              <th scope="col">{headers.avgSpeed}</th>
              <th scope="col">{headers.avgDistance}</th>
            </tr>
          </thead>
          <tbody>
            {report.data.length === 0 ? (
              <tr>
                <td colSpan={6} className="text-center text-body-secondary py-4">
                  {t('reports.weekly.empty', { year: report.year })}
                </td>
              </tr>
            ) : (
              report.data.map((row) => (
                <tr key={row.week}>
                  <td data-label={headers.week}>
                    <span>
                      <span className="text-nowrap">{display.formatDate(row.week_start)}</span> -{' '}
                      <span className="text-nowrap">{display.formatDate(row.week_end)}</span>{' '}
                      <span className="text-body-secondary text-nowrap">
                        {t('reports.weekly.weekNumber', { week: row.week })}
                      </span>
                    </span>
                  </td>
                  <td data-label={headers.runs}>{row.count}</td>
                  <td data-label={headers.totalDistance}>{display.formatDistance(row.total_distance)}</td>
                  <td data-label={headers.totalTime}>{row.total_time}</td>
                  <td data-label={headers.avgSpeed}>{display.formatSpeed(row.avg_speed)}</td>
                  <td data-label={headers.avgDistance}>{display.formatDistance(row.avg_distance)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
