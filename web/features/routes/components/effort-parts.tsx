/**
 * What a route's page and a segment's page share: the efforts table (fastest first, with rank), the
 * chart of times over the years, and the rename form.
 */
import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import routesTexts from 'virtual:i18n/routes';
import type { Effort } from '../../../../core/routes/schemas.js';
import { parseDuration } from '../../../../core/time.js';
import { LazySeriesChart } from '../../../components/charts/lazy-series-chart';
import { FormField } from '../../../components/form/form-field';
import { useT } from '../../../i18n/runtime';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useDisplay } from '../../../lib/display';
import { useChartColors } from '../../../components/charts/chart-colors';

export function runPath(entryId: number): string {
  return `/entry/${entryId}`;
}

export function EffortsTable({ efforts, label }: { efforts: readonly Effort[]; label: string }) {
  const t = useT(routesTexts);
  const display = useDisplay();
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle mb-0" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">{t('routes.efforts.rank')}</th>
            <th scope="col">{t('routes.efforts.date')}</th>
            <th scope="col">{t('routes.efforts.time')}</th>
            <th scope="col">{t('routes.efforts.pace', { unit: display.labels.pace })}</th>
          </tr>
        </thead>
        <tbody>
          {efforts.map((effort) => (
            <tr key={`${effort.entry_id}-${effort.time}-${effort.rank}`}>
              <td>{effort.rank}</td>
              <td>
                <Link to={runPath(effort.entry_id)}>{display.formatDate(effort.date)}</Link>
              </td>
              <td>{effort.time}</td>
              <td>{display.formatPace(Number(effort.pace))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Each effort's time in minutes, oldest first: how the runner got faster (or not) over the years. */
export function EffortsChart({ efforts, label }: { efforts: readonly Effort[]; label: string }) {
  const t = useT(routesTexts);
  const display = useDisplay();
  const colors = useChartColors();
  const byDate = useMemo(
    () => [...efforts].sort((a, b) => a.date.localeCompare(b.date) || a.entry_id - b.entry_id),
    [efforts],
  );
  if (byDate.length < 2) return <p className="text-body-secondary mb-0">{t('routes.chart.tooFew')}</p>;
  return (
    <LazySeriesChart
      kind="line"
      height={260}
      label={label}
      labels={byDate.map((effort) => display.formatDate(effort.date))}
      yTitle={t('routes.chart.minutes')}
      reverse
      series={[
        {
          label: t('routes.chart.time'),
          values: byDate.map((effort) => {
            const seconds = parseDuration(effort.time);
            return seconds === null ? null : Math.round((seconds / 60) * 100) / 100;
          }),
          color: colors.speed,
        },
      ]}
    />
  );
}

/** Renames a route or a segment; the server's message shows under the field. */
export function RenameForm({
  name,
  onRename,
  pending,
  error,
}: {
  name: string;
  onRename: (name: string) => Promise<unknown>;
  pending: boolean;
  error: unknown;
}) {
  const t = useT(routesTexts);
  const [value, setValue] = useState(name);
  const [saved, setSaved] = useState(false);
  const statusId = useId();
  const trimmed = value.trim();
  const local = trimmed.length === 0 ? [t('routes.rename.required')] : undefined;
  const errors = local ?? fieldErrorsOf(error).name;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    if (local) return;
    onRename(trimmed).then(
      () => setSaved(true),
      () => undefined,
    );
  };
  return (
    <form className="d-flex flex-wrap align-items-start gap-2 mb-3" onSubmit={submit} noValidate>
      <FormField
        label={t('routes.rename.label')}
        value={value}
        onValueChange={(next) => {
          setValue(next);
          setSaved(false);
        }}
        errors={value === name && !error ? undefined : errors}
        maxLength={100}
        className="flex-grow-1 mb-0"
        translate="no"
      />
      <button type="submit" className="btn btn-outline-primary mt-md-4" disabled={pending}>
        {t('routes.rename.submit')}
      </button>
      <p id={statusId} className="visually-hidden" role="status">
        {saved ? t('routes.rename.saved') : ''}
      </p>
    </form>
  );
}
