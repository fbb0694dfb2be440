import { Panel } from '../../../components/panel';
import { useStreaks } from '../api/get-streaks';
import { formatCount } from '../../../../core/format.js';

/** Current and longest streaks of days and weeks with a run (the dashboard). */
export function StreaksCard() {
  const { data: streaks } = useStreaks();
  if (!streaks) return null;
  return (
    <Panel title="Streaks">
      <dl className="row mb-0 text-center">
        <div className="col-6">
          <dt className="small text-body-secondary fw-normal">Day streak</dt>
          <dd className="h4 mb-0">{formatCount(streaks.current_days, 'day')}</dd>
          <dd className="small text-body-secondary mb-0">Longest: {formatCount(streaks.longest_days, 'day')}</dd>
        </div>
        <div className="col-6">
          <dt className="small text-body-secondary fw-normal">Week streak</dt>
          <dd className="h4 mb-0">{formatCount(streaks.current_weeks, 'week')}</dd>
          <dd className="small text-body-secondary mb-0">Longest: {formatCount(streaks.longest_weeks, 'week')}</dd>
        </div>
      </dl>
    </Panel>
  );
}
