import { Link } from 'react-router';
import goals from 'virtual:i18n/goals';
import type { Goal } from '../../../../core/goals.js';
import type { Units } from '../../../../core/units.js';
import { Panel } from '../../../components/panel';
import { ProgressBar } from '../../../components/progress-bar';
import { splitAround, useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { useGoals } from '../api/get-goals';
import { doneOfTarget, formatAmount, goalTitle, toGoLine } from './goal-format';

/** One goal's current period: a bar, what is done, what remains and what that needs per day. */
export function GoalProgress({ goal, units }: { goal: Goal; units: Units }) {
  const t = useT(goals);
  const display = useDisplay();
  const distanceUnit = display.labels.distance;
  const amount = (value: number) => formatAmount(goal.metric, value, units, distanceUnit);
  const done = t('goals.progress.of', { done: amount(goal.progress), target: amount(goal.target) });
  const line = doneOfTarget(goal, units, distanceUnit);
  return (
    <>
      <ProgressBar
        value={goal.progress}
        max={goal.target}
        label={goalTitle(goal, units, distanceUnit)}
        valueText={done}
        tone={goal.achieved ? 'success' : 'primary'}
      />
      <div className="small mt-1">
        {line}
        {goal.achieved ? (
          <span className="text-success fw-semibold"> · {t('goals.progress.met')}</span>
        ) : (
          <span className="text-body-secondary"> · {toGoLine(goal, units, distanceUnit, display.dateFormat)}</span>
        )}
      </div>
    </>
  );
}

/** The dashboard's goals panel. */
export function GoalsPanel({ units }: { units: Units }) {
  const t = useT(goals);
  const { labels } = useDisplay();
  const list = useGoals();
  const [beforeLink, afterLink] = splitAround(t, 'goals.panel.empty', 'link');
  return (
    <Panel title={t('goals.panel.title')}>
      {list.isError ? (
        <p className="text-danger mb-0">{t('goals.panel.loadError')}</p>
      ) : !list.data ? (
        <p className="text-body-secondary mb-0">{t('goals.panel.loading')}</p>
      ) : list.data.length === 0 ? (
        <p className="mb-0">
          {beforeLink}
          <Link to="/goals">{t('goals.panel.setGoal')}</Link>
          {afterLink}
        </p>
      ) : (
        <>
          <ul className="list-unstyled">
            {list.data.map((goal) => (
              <li key={goal.id} className="mb-3">
                <div className="fw-semibold small mb-1">{goalTitle(goal, units, labels.distance)}</div>
                <GoalProgress goal={goal} units={units} />
              </li>
            ))}
          </ul>
          <Link to="/goals">{t('goals.panel.manage')}</Link>
        </>
      )}
    </Panel>
  );
}
