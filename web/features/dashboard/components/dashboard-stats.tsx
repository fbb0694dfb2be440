import { Link } from 'react-router';
import { formatText } from '../../../../core/format.js';
import type { Dashboard } from '../../../../core/schemas.js';
import { addDays } from '../../../../core/time.js';
import { LazyPerformanceChart } from '../../../components/charts/lazy-performance-chart';
import type { ChartPoint } from '../../../components/charts/chart-types';
import { Panel } from '../../../components/panel';
import { useDisplay, type Display } from '../../../lib/display';
import { useDashboard } from '../api/get-dashboard';

const CHART_DAYS = 14;

/**
 * The 14 days ending today, oldest first: each day with runs at its speed and distance, each day
 * without a gap. The API's rows (`MM/DD`) name only the days with runs, all within these 14.
 */
export function chartDays(rows: Dashboard['week_chart'], today: string, display: Display): ChartPoint[] {
  const byDay = new Map(rows.map(([label, speed, distance]) => [label, { speed, distance }]));
  return Array.from({ length: CHART_DAYS }, (_, index) => {
    const day = addDays(today, index + 1 - CHART_DAYS);
    const runs = byDay.get(`${day.slice(5, 7)}/${day.slice(8, 10)}`);
    return {
      label: display.formatDate(day),
      speed: runs ? display.speed(runs.speed) : null,
      distance: runs ? display.distance(runs.distance) : null,
    };
  });
}

/**
 * One statistic of a panel. The columns share the row equally but never get
 * narrower than their value, which stays on one line (a time such as 01:43:34
 * needs more room than a third of a half-width panel).
 */
function Stat({ label, value, unit }: { label: string; value: string; unit?: string }) {
  return (
    <div className="col">
      <dt className="small text-body-secondary fw-normal">{label}</dt>
      <dd className="fs-5 fw-semibold mb-0 text-nowrap">
        {value}
        {unit && value !== '—' ? <span className="d-block small fw-normal"> {unit}</span> : null}
      </dd>
    </div>
  );
}

export function ThisWeekPanel({ dashboard }: { dashboard: Dashboard | undefined }) {
  const display = useDisplay();
  return (
    <Panel title="This week">
      <dl className="row text-center mb-0">
        <Stat label="Records" value={dashboard ? String(dashboard.weekly_count) : '—'} />
        <Stat
          label="Average speed"
          value={display.formatSpeed(dashboard?.weekly_avg_speed)}
          unit={display.labels.speed}
        />
        <Stat label="Average pace" value={display.formatPace(dashboard?.weekly_avg_pace)} unit={display.labels.pace} />
      </dl>
    </Panel>
  );
}

export function BestResultsPanel({ dashboard }: { dashboard: Dashboard | undefined }) {
  const display = useDisplay();
  return (
    <Panel title="Best results">
      <dl className="row text-center mb-0">
        <Stat label="Best speed" value={display.formatSpeed(dashboard?.max_speed)} unit={display.labels.speed} />
        <Stat
          label="Longest distance"
          value={display.formatDistance(dashboard?.max_distance)}
          unit={display.labels.distance}
        />
        <Stat label="Longest run" value={formatText(dashboard?.max_time)} />
      </dl>
    </Panel>
  );
}

export function PerformancePanel({ dashboard }: { dashboard: Dashboard | undefined }) {
  const display = useDisplay();
  const rows = dashboard?.week_chart ?? [];
  return (
    <Panel title="My Performance">
      <LazyPerformanceChart
        points={rows.length > 0 ? chartDays(rows, display.today(), display) : []}
        height={250}
        labels={display.labels}
        label={`Speed (${display.labels.speed}) and distance (${display.labels.distance}) per day over the last 14 days`}
        emptyText="No runs in the last 14 days."
      />
    </Panel>
  );
}

/** A runner without runs yet: where to start, rather than empty panels. */
export function Welcome() {
  return (
    <section className="card mb-4 border-primary" aria-labelledby="welcome-title">
      <div className="card-body">
        <h2 id="welcome-title" className="h5">
          Welcome to Running Times!
        </h2>
        <p>Your dashboard fills up as you log runs: this week, your best results and the last two weeks.</p>
        <div className="d-flex flex-wrap gap-2">
          <Link to="/entry/new" className="btn btn-primary">
            Add your first run
          </Link>
          <Link to="/data" className="btn btn-outline-primary">
            Bring your history
          </Link>
        </div>
        <p className="small text-body-secondary mt-2 mb-0">
          Bring your history from Strava, Garmin Connect or your watch's files on the Your data page.
        </p>
      </div>
    </section>
  );
}

/** The runner's statistics: this week, best results and the last two weeks' chart (a welcome before the first run). */
export function DashboardStats() {
  const { data } = useDashboard();
  return (
    <>
      {data && data.max_distance === null ? <Welcome /> : null}
      <div className="row">
        <div className="col-lg-6">
          <ThisWeekPanel dashboard={data} />
        </div>
        <div className="col-lg-6">
          <BestResultsPanel dashboard={data} />
        </div>
      </div>
      <PerformancePanel dashboard={data} />
    </>
  );
}
