import { useState, type FormEvent } from 'react';
import goals from 'virtual:i18n/goals';
import {
  GOAL_METRICS,
  GOAL_PERIODS,
  MAX_TARGET,
  targetProblem,
  type Goal,
  type GoalBody,
  type GoalMetric,
  type GoalPeriod,
} from '../../../../core/goals.js';
import type { Units } from '../../../../core/units.js';
import { check } from '../../../components/form/form-errors';
import { useFormErrors } from '../../../components/form/use-form-errors';
import { FieldErrors as FieldErrorList, FormField } from '../../../components/form/form-field';
import { t, useT } from '../../../i18n/runtime';
import type { FieldErrors } from '../../../lib/api-client';
import { useDisplay } from '../../../lib/display';
import { metricLabel, periodLabel, targetForForm, targetFromForm, targetUnit } from './goal-format';

interface GoalFormProps {
  goal?: Goal;
  units: Units;
  pending?: boolean;
  serverErrors?: FieldErrors;
  submitLabel: string;
  onSubmit: (input: GoalBody) => void;
  onCancel?: () => void;
}

/** Why a target does not suit its metric (core's `targetProblem`), in the app's language; null when it does. */
function targetMessage(metric: GoalMetric, target: number): string | null {
  if (targetProblem(metric, target) === null) return null;
  if (!Number.isFinite(target) || target <= 0) return t('goals.form.targetPositive');
  if (target > MAX_TARGET[metric]) return t('goals.form.targetTooLarge', { max: MAX_TARGET[metric] });
  if (metric === 'distance') return t('goals.form.targetDecimals');
  return t(metric === 'time' ? 'goals.form.targetWholeSeconds' : 'goals.form.targetWholeRuns');
}

/** Period, metric and target (typed in the runner's distance unit, in hours, or in runs). */
export function GoalForm({ goal, units, pending, serverErrors = {}, submitLabel, onSubmit, onCancel }: GoalFormProps) {
  useT(goals);
  const { labels } = useDisplay();
  const [period, setPeriod] = useState<GoalPeriod>(goal?.period ?? 'week');
  const [metric, setMetric] = useState<GoalMetric>(goal?.metric ?? 'distance');
  const [target, setTarget] = useState(goal ? targetForForm(goal.metric, goal.target, units) : '');
  const checks = useFormErrors({
    values: { period, metric, target },
    validate: (typed) =>
      check({ target: [targetMessage(typed.metric, targetFromForm(typed.metric, typed.target, units, goal))] }),
    serverErrors,
  });
  const errors = checks.errors;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = targetFromForm(metric, target, units, goal);
    if (!checks.submit()) return;
    onSubmit({ period, metric, target: value });
  };

  return (
    <form onSubmit={submit} noValidate>
      <div className="row g-2">
        <div className="col-sm-4">
          <FormField
            label={t('goals.form.period')}
            name="period"
            value={period}
            onValueChange={(value) => setPeriod(value as GoalPeriod)}
            options={GOAL_PERIODS.map((value) => ({ value, label: periodLabel(value) }))}
            errors={errors.period}
          />
        </div>
        <div className="col-sm-4">
          <FormField
            label={t('goals.form.measure')}
            name="metric"
            value={metric}
            onValueChange={(value) => setMetric(value as GoalMetric)}
            options={GOAL_METRICS.map((value) => ({ value, label: metricLabel(value) }))}
            errors={errors.metric}
          />
        </div>
        <div className="col-sm-4">
          <FormField
            label={t('goals.form.target', { unit: targetUnit(metric, labels.distance) })}
            name="target"
            inputMode="decimal"
            autoComplete="off"
            required
            value={target}
            onValueChange={setTarget}
            errors={errors.target}
          />
        </div>
      </div>
      <FieldErrorList id={`goal-errors-${goal?.id ?? 'new'}`} errors={errors.goal} />
      <div className="d-flex gap-2">
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
            {t('goals.form.cancel')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
