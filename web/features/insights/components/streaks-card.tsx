import insights from 'virtual:i18n/insights';
import { Panel } from '../../../components/panel';
import { useT } from '../../../i18n/runtime';
import { useStreaks } from '../api/get-streaks';

/** Current and longest streaks of days and weeks with a run (the dashboard). */
export function StreaksCard() {
  const t = useT(insights);
  const { data: streaks } = useStreaks();
  if (!streaks) return null;
  return (
    <Panel title={t('insights.streaks.title')}>
      <dl className="row mb-0 text-center">
        <div className="col-6">
          <dt className="small text-body-secondary fw-normal">{t('insights.streaks.days')}</dt>
          <dd className="h4 mb-0">{t('insights.streaks.dayCount', { count: streaks.current_days })}</dd>
          <dd className="small text-body-secondary mb-0">
            {t('insights.streaks.longestDays', { count: streaks.longest_days })}
          </dd>
        </div>
        <div className="col-6">
          <dt className="small text-body-secondary fw-normal">{t('insights.streaks.weeks')}</dt>
          <dd className="h4 mb-0">{t('insights.streaks.weekCount', { count: streaks.current_weeks })}</dd>
          <dd className="small text-body-secondary mb-0">
            {t('insights.streaks.longestWeeks', { count: streaks.longest_weeks })}
          </dd>
        </div>
      </dl>
    </Panel>
  );
}
