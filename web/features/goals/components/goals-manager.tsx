import { useState, type ReactNode } from 'react';
import { MAX_GOALS, type Goal } from '../../../../core/goals.js';
import type { Units } from '../../../../core/units.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { Panel } from '../../../components/panel';
import { QueryList } from '../../../components/query-list';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useDisplay } from '../../../lib/display';
import { useGoals } from '../api/get-goals';
import { useDeleteGoal, useSaveGoal } from '../api/save-goal';
import { formatAmount, goalTitle, periodName } from './goal-format';
import { GoalForm } from './goal-form';
import { GoalProgress } from './goal-progress';

const HISTORY_CAPTION = { week: 'The last 12 weeks', month: 'The last 12 months', year: 'The last 12 years' };
const PERIOD_RUNS = { week: 'Runs of this week', month: 'Runs of this month', year: 'Runs of this year' };

/** The runs of a goal's current period, as the screen lists them (runs are another feature's). */
export type PeriodRunsList = (period: { dateFrom: string; dateTo: string }) => ReactNode;

/** A folded part of a goal whose content is made (and fetched) only once it is opened. */
function Unfolded({ summary, children }: { summary: string; children: () => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="mt-2" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{summary}</summary>
      {open ? <div className="mt-2">{children()}</div> : null}
    </details>
  );
}

/** The 12 periods before this one, newest first: met or not. */
function GoalHistory({ goal, units }: { goal: Goal; units: Units }) {
  const { dateFormat } = useDisplay();
  const met = goal.history.filter((row) => row.achieved).length;
  return (
    <details className="mt-2">
      <summary>
        {HISTORY_CAPTION[goal.period]}: met {met} of {goal.history.length}
      </summary>
      {/* Focusable, so that a keyboard can scroll it on a narrow screen. */}
      <div
        className="table-responsive"
        tabIndex={0}
        role="region"
        aria-label={`${HISTORY_CAPTION[goal.period]} of ${goalTitle(goal, units)}`}
      >
        <table className="table table-sm mb-0 mt-2">
          <caption className="visually-hidden">
            {HISTORY_CAPTION[goal.period]} of {goalTitle(goal, units)}
          </caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">Progress</th>
              <th scope="col">Met</th>
            </tr>
          </thead>
          <tbody>
            {goal.history.map((row) => (
              <tr key={row.period_start}>
                <td>{periodName(goal.period, row.period_start, dateFormat)}</td>
                <td>{formatAmount(goal.metric, row.progress, units)}</td>
                <td className={row.achieved ? 'text-success' : 'text-body-secondary'}>{row.achieved ? 'Yes' : 'No'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function GoalItem({ goal, units, periodRuns }: { goal: Goal; units: Units; periodRuns?: PeriodRunsList }) {
  const [editing, setEditing] = useState(false);
  const save = useSaveGoal({
    onSuccess: () => {
      notify('Goal was updated!', 'success');
      setEditing(false);
    },
  });
  const remove = useDeleteGoal();
  const { confirm, dialog } = useConfirm();
  const title = goalTitle(goal, units);
  return (
    <li className="list-group-item py-3">
      <h3 className="h6">{title}</h3>
      <GoalProgress goal={goal} units={units} />
      {editing ? (
        <div className="mt-3">
          <GoalForm
            goal={goal}
            units={units}
            submitLabel="Save"
            pending={save.isPending}
            serverErrors={fieldErrorsOf(save.error)}
            onSubmit={(input) => save.mutate({ id: goal.id, ...input })}
            onCancel={() => setEditing(false)}
          />
        </div>
      ) : (
        <div className="d-flex flex-wrap gap-2 mt-2">
          <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => setEditing(true)}>
            Edit <span className="visually-hidden">{title}</span>
          </button>
          <button
            type="button"
            className="btn btn-sm btn-outline-danger"
            disabled={remove.isPending}
            onClick={async () => {
              if (await confirm(`Remove the goal "${title}"?`)) {
                remove.mutate(goal.id, { onSuccess: () => notify('Goal was removed.', 'success') });
              }
            }}
          >
            Remove <span className="visually-hidden">{title}</span>
          </button>
        </div>
      )}
      {periodRuns ? (
        <Unfolded summary={PERIOD_RUNS[goal.period]}>
          {() => periodRuns({ dateFrom: goal.period_start, dateTo: goal.period_end })}
        </Unfolded>
      ) : null}
      <GoalHistory goal={goal} units={units} />
      {dialog}
    </li>
  );
}

/** The goals page: each goal with its progress, this period's runs and its history, and a form to add one. */
export function GoalsManager({ units, periodRuns }: { units: Units; periodRuns?: PeriodRunsList }) {
  const goals = useGoals();
  const [generation, setGeneration] = useState(0);
  const create = useSaveGoal({
    onSuccess: () => {
      notify('Goal was added!', 'success');
      setGeneration((value) => value + 1);
    },
  });
  const count = goals.data?.length ?? 0;
  return (
    <>
      <Panel title="My goals" flush>
        <QueryList items={goals.data} isError={goals.isError} noun="goals" empty="No goals yet. Add one below.">
          {(goal) => <GoalItem key={goal.id} goal={goal} units={units} periodRuns={periodRuns} />}
        </QueryList>
      </Panel>
      <Panel title="Add a goal">
        {count >= MAX_GOALS ? (
          <p className="mb-0">You have {MAX_GOALS} goals, the most there can be. Remove one to add another.</p>
        ) : (
          <GoalForm
            key={generation}
            units={units}
            submitLabel="Add goal"
            pending={create.isPending}
            serverErrors={fieldErrorsOf(create.error)}
            onSubmit={(input) => create.mutate(input)}
          />
        )}
      </Panel>
    </>
  );
}
