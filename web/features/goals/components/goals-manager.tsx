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

const PERIOD_NOUN = { week: ['week', 'weeks'], month: ['month', 'months'], year: ['year', 'years'] } as const;

/**
 * The history's periods from the runner's first run on: the API names the 12 periods before this one
 * whether or not the runner ran then (§11); the oldest ones without any progress come before their
 * first run (every run has a distance and a time), so they are left out.
 */
export function historySinceFirstRun(history: Goal['history']): Goal['history'] {
  let end = history.length;
  while (end > 0 && history[end - 1]!.progress === 0) end -= 1;
  return history.slice(0, end);
}

/** "The last 12 weeks" when the history is whole, else "The 5 months since your first run". */
function historyCaption(period: Goal['period'], shown: number, whole: number): string {
  const [one, many] = PERIOD_NOUN[period];
  if (shown === whole) return `The last ${shown} ${many}`;
  return shown === 1 ? `The ${one} since your first run` : `The ${shown} ${many} since your first run`;
}
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

/** The periods before this one since the runner's first run (12 at most), newest first: met or not. */
function GoalHistory({ goal, units }: { goal: Goal; units: Units }) {
  const { dateFormat } = useDisplay();
  const rows = historySinceFirstRun(goal.history);
  if (rows.length === 0) {
    return (
      <p className="small text-body-secondary mt-2 mb-0">
        No earlier {PERIOD_NOUN[goal.period][1]} yet: the history starts with the {PERIOD_NOUN[goal.period][0]} of your
        first run.
      </p>
    );
  }
  const caption = historyCaption(goal.period, rows.length, goal.history.length);
  const met = rows.filter((row) => row.achieved).length;
  return (
    <details className="mt-2">
      <summary>
        {caption}: met {met} of {rows.length}
      </summary>
      {/* Focusable, so that a keyboard can scroll it on a narrow screen. */}
      <div
        className="table-responsive"
        tabIndex={0}
        role="region"
        aria-label={`${caption} of ${goalTitle(goal, units)}`}
      >
        <table className="table table-sm mb-0 mt-2">
          <caption className="visually-hidden">
            {caption} of {goalTitle(goal, units)}
          </caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">Progress</th>
              <th scope="col">Met</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
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
