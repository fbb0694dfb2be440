import { formatText } from '../../../../core/format.js';
import type { Dashboard } from '../../../../core/schemas.js';
import { LazyPerformanceChart } from '../../../components/charts/lazy-performance-chart';
import { Panel } from '../../../components/panel';
import { useDisplay } from '../../../lib/display';
import { useDashboard } from '../api/get-dashboard';

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
  const points = (dashboard?.week_chart ?? []).map(([label, speed, distance]) => ({
    label,
    speed: display.speed(speed),
    distance: display.distance(distance),
  }));
  return (
    <Panel title="My Performance">
      <LazyPerformanceChart
        points={points}
        height={250}
        labels={display.labels}
        label={`Speed (${display.labels.speed}) and distance (${display.labels.distance}) per day over the last 14 days`}
        emptyText="No runs in the last 14 days."
      />
    </Panel>
  );
}

/** The runner's statistics: this week, best results and the last two weeks' chart. */
export function DashboardStats() {
  const { data } = useDashboard();
  return (
    <>
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
