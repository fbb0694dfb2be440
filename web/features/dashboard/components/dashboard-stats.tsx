import { formatText } from '../../../../core/format.js';
import type { Dashboard } from '../../../../core/schemas.js';
import { LazyPerformanceChart } from '../../../components/charts/lazy-performance-chart';
import { Panel } from '../../../components/panel';
import { useUnits } from '../../../lib/units';
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
  const units = useUnits();
  return (
    <Panel title="This week">
      <dl className="row text-center mb-0">
        <Stat label="Records" value={dashboard ? String(dashboard.weekly_count) : '—'} />
        <Stat label="Average speed" value={units.formatSpeed(dashboard?.weekly_avg_speed)} unit={units.labels.speed} />
        <Stat label="Average pace" value={units.formatPace(dashboard?.weekly_avg_pace)} unit={units.labels.pace} />
      </dl>
    </Panel>
  );
}

export function BestResultsPanel({ dashboard }: { dashboard: Dashboard | undefined }) {
  const units = useUnits();
  return (
    <Panel title="Best results">
      <dl className="row text-center mb-0">
        <Stat label="Best speed" value={units.formatSpeed(dashboard?.max_speed)} unit={units.labels.speed} />
        <Stat
          label="Longest distance"
          value={units.formatDistance(dashboard?.max_distance)}
          unit={units.labels.distance}
        />
        <Stat label="Longest run" value={formatText(dashboard?.max_time)} />
      </dl>
    </Panel>
  );
}

export function PerformancePanel({ dashboard }: { dashboard: Dashboard | undefined }) {
  const units = useUnits();
  const points = (dashboard?.week_chart ?? []).map(([label, speed, distance]) => ({
    label,
    speed: units.speed(speed),
    distance: units.distance(distance),
  }));
  return (
    <Panel title="My Performance">
      <LazyPerformanceChart
        points={points}
        height={250}
        labels={units.labels}
        label={`Speed (${units.labels.speed}) and distance (${units.labels.distance}) per day over the last 14 days`}
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
