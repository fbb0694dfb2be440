import { Link } from 'react-router';
import type { Goal } from '../../../../core/goals.js';
import type { Units } from '../../../../core/units.js';
import { Panel } from '../../../components/panel';
import { ProgressBar } from '../../../components/progress-bar';
import { useDisplay } from '../../../lib/display';
import { useGoals } from '../api/get-goals';
import { doneOfTarget, formatAmount, goalTitle, toGoLine } from './goal-format';

/** One goal's current period: a bar, what is done, what remains and what that needs per day. */
export function GoalProgress({ goal, units }: { goal: Goal; units: Units }) {
  const display = useDisplay();
  const amount = (value: number) => formatAmount(goal.metric, value, units);
  const done = `${amount(goal.progress)} of ${amount(goal.target)}`;
  const line = doneOfTarget(goal, units);
  return (
    <>
      <ProgressBar
        value={goal.progress}
        max={goal.target}
        label={goalTitle(goal, units)}
        valueText={done}
        tone={goal.achieved ? 'success' : 'primary'}
      />
      <div className="small mt-1">
        {line}
        {goal.achieved ? (
          <span className="text-success fw-semibold"> · Goal met!</span>
        ) : (
          <span className="text-body-secondary"> · {toGoLine(goal, units, display.dateFormat)}</span>
        )}
      </div>
    </>
  );
}

/** The dashboard's goals panel. */
export function GoalsPanel({ units }: { units: Units }) {
  const goals = useGoals();
  return (
    <Panel title="Goals">
      {goals.isError ? (
        <p className="text-danger mb-0">Your goals could not be loaded.</p>
      ) : !goals.data ? (
        <p className="text-body-secondary mb-0">Loading…</p>
      ) : goals.data.length === 0 ? (
        <p className="mb-0">
          No goals yet. <Link to="/goals">Set a goal</Link>
        </p>
      ) : (
        <>
          <ul className="list-unstyled">
            {goals.data.map((goal) => (
              <li key={goal.id} className="mb-3">
                <div className="fw-semibold small mb-1">{goalTitle(goal, units)}</div>
                <GoalProgress goal={goal} units={units} />
              </li>
            ))}
          </ul>
          <Link to="/goals">Manage goals</Link>
        </>
      )}
    </Panel>
  );
}
