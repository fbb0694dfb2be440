import { useState, type ReactNode } from 'react';
import goals from 'virtual:i18n/goals';
import { MAX_GOALS, type Goal } from '../../../../core/goals.js';
import type { Units } from '../../../../core/units.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { Panel } from '../../../components/panel';
import { QueryList } from '../../../components/query-list';
import { notify } from '../../../components/toast/toast-store';
import { t, useT } from '../../../i18n/runtime';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useDisplay } from '../../../lib/display';
import { useGoals } from '../api/get-goals';
import { useDeleteGoal, useSaveGoal } from '../api/save-goal';
import { formatAmount, goalTitle, periodName } from './goal-format';
import { GoalForm } from './goal-form';
import { GoalProgress } from './goal-progress';

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
  if (shown === whole) return t('goals.history.last', { period, count: shown });
  return t('goals.history.sinceFirstRun', { period, count: shown });
}

/** The runs of the goal's current period, as the fold names them. */
const periodRunsTitle = (period: Goal['period']) =>
  t(
    period === 'week'
      ? 'goals.item.runsOfWeek'
      : period === 'month'
        ? 'goals.item.runsOfMonth'
        : 'goals.item.runsOfYear',
  );

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
  const t = useT(goals);
  const { dateFormat, labels } = useDisplay();
  const rows = historySinceFirstRun(goal.history);
  if (rows.length === 0) {
    return <p className="small text-body-secondary mt-2 mb-0">{t('goals.history.none', { period: goal.period })}</p>;
  }
  const caption = historyCaption(goal.period, rows.length, goal.history.length);
  const met = rows.filter((row) => row.achieved).length;
  return (
    <details className="mt-2">
      <summary>{t('goals.history.summary', { caption, met, count: rows.length })}</summary>
      {/* Focusable, so that a keyboard can scroll it on a narrow screen. */}
      <div
        className="table-responsive"
        tabIndex={0}
        role="region"
        aria-label={t('goals.history.label', { caption, goal: goalTitle(goal, units, labels.distance) })}
      >
        <table className="table table-sm mb-0 mt-2">
          <caption className="visually-hidden">
            {t('goals.history.label', { caption, goal: goalTitle(goal, units, labels.distance) })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('goals.history.period')}</th>
              <th scope="col">{t('goals.history.progress')}</th>
              <th scope="col">{t('goals.history.met')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.period_start}>
                <td>{periodName(goal.period, row.period_start, dateFormat)}</td>
                <td>{formatAmount(goal.metric, row.progress, units, labels.distance)}</td>
                <td className={row.achieved ? 'text-success' : 'text-body-secondary'}>
                  {t(row.achieved ? 'goals.history.yes' : 'goals.history.no')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function GoalItem({ goal, units, periodRuns }: { goal: Goal; units: Units; periodRuns?: PeriodRunsList }) {
  const t = useT(goals);
  const [editing, setEditing] = useState(false);
  const save = useSaveGoal({
    onSuccess: () => {
      notify(t('goals.item.updated'), 'success');
      setEditing(false);
    },
  });
  const remove = useDeleteGoal();
  const { confirm, dialog } = useConfirm();
  const { labels } = useDisplay();
  const title = goalTitle(goal, units, labels.distance);
  return (
    <li className="list-group-item py-3">
      <h3 className="h6">{title}</h3>
      <GoalProgress goal={goal} units={units} />
      {editing ? (
        <div className="mt-3">
          <GoalForm
            goal={goal}
            units={units}
            submitLabel={t('goals.item.save')}
            pending={save.isPending}
            serverErrors={fieldErrorsOf(save.error)}
            onSubmit={(input) => save.mutate({ id: goal.id, ...input })}
            onCancel={() => setEditing(false)}
          />
        </div>
      ) : (
        <div className="d-flex flex-wrap gap-2 mt-2">
          <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => setEditing(true)}>
            {t('goals.item.edit')} <span className="visually-hidden">{title}</span>
          </button>
          <button
            type="button"
            className="btn btn-sm btn-outline-danger"
            disabled={remove.isPending}
            onClick={async () => {
              if (await confirm(t('goals.item.removeConfirm', { title }))) {
                remove.mutate(goal.id, { onSuccess: () => notify(t('goals.item.removed'), 'success') });
              }
            }}
          >
            {t('goals.item.remove')} <span className="visually-hidden">{title}</span>
          </button>
        </div>
      )}
      {periodRuns ? (
        <Unfolded summary={periodRunsTitle(goal.period)}>
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
  const t = useT(goals);
  const list = useGoals();
  const [generation, setGeneration] = useState(0);
  const create = useSaveGoal({
    onSuccess: () => {
      notify(t('goals.manager.added'), 'success');
      setGeneration((value) => value + 1);
    },
  });
  const count = list.data?.length ?? 0;
  return (
    <>
      <Panel title={t('goals.manager.title')} flush>
        <QueryList
          items={list.data}
          isError={list.isError}
          error={t('goals.panel.loadError')}
          empty={t('goals.manager.empty')}
        >
          {(goal) => <GoalItem key={goal.id} goal={goal} units={units} periodRuns={periodRuns} />}
        </QueryList>
      </Panel>
      <Panel title={t('goals.manager.addTitle')}>
        {count >= MAX_GOALS ? (
          <p className="mb-0">{t('goals.manager.full', { max: MAX_GOALS })}</p>
        ) : (
          <GoalForm
            key={generation}
            units={units}
            submitLabel={t('goals.manager.add')}
            pending={create.isPending}
            serverErrors={fieldErrorsOf(create.error)}
            onSubmit={(input) => create.mutate(input)}
          />
        )}
      </Panel>
    </>
  );
}
