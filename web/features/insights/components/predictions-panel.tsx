import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import insights from 'virtual:i18n/insights';
import { decimal } from '../../../../core/format.js';
import { Panel } from '../../../components/panel';
import { t, useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { usePredictions } from '../api/get-predictions';
import { runPagePath } from '../../../lib/run-paths';
import { distanceLabel } from './format';

/**
 * A message with elements inside (a link, an exponent): its text with each element where its
 * placeholder stands, in the order the language puts them.
 */
function withElements(text: (marks: Record<string, string>) => string, elements: Record<string, ReactNode>) {
  const names = Object.keys(elements);
  const marks = Object.fromEntries(names.map((name, i) => [name, `\uE000${i}\uE000`]));
  return text(marks)
    .split(/\uE000(\d+)\uE000/)
    .map((piece, i) => (i % 2 === 1 ? <Fragment key={i}>{elements[names[Number(piece)]!]}</Fragment> : piece));
}

/** Race times predicted from the best run of the last 180 days, two ways side by side. */
export function PredictionsPanel() {
  useT(insights);
  const { data: predictions, isError, isPending } = usePredictions();
  const display = useDisplay();
  if (isError) return <p className="text-danger">{t('insights.predictions.loadError')}</p>;
  if (isPending) return null;
  if (predictions === null) {
    return (
      <Panel title={t('insights.predictions.title')}>
        <p className="mb-0 text-body-secondary">{t('insights.predictions.empty')}</p>
      </Panel>
    );
  }
  const { source } = predictions;
  const link = (
    <Link
      to={
        source.kind === 'best_effort'
          ? `${runPagePath(source.entry_id)}?effort=${source.key}`
          : runPagePath(source.entry_id)
      }
    >
      {t('insights.predictions.sourceRun', {
        date: display.formatDate(source.date),
        distance: display.runDistance(source.distance),
        unit: display.labels.distance,
        time: source.time,
      })}
    </Link>
  );
  const vdot = decimal(source.vdot, 1);
  return (
    <Panel title={t('insights.predictions.title')}>
      <p>
        {withElements(
          (marks) =>
            source.kind === 'best_effort'
              ? t('insights.predictions.fromEffort', { ...marks, vdot })
              : t('insights.predictions.fromRun', { ...marks, vdot }),
          { link },
        )}
      </p>
      <div>
        <table className="table table-sm align-middle">
          <caption className="visually-hidden">{t('insights.predictions.table')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('insights.predictions.race')}</th>
              <th scope="col" translate="no">
                Riegel
              </th>
              <th scope="col" translate="no">
                VDOT
              </th>
            </tr>
          </thead>
          <tbody>
            {predictions.races.map((race) => (
              <tr key={race.key}>
                <th scope="row">{distanceLabel(race.key)}</th>
                <td>{race.riegel_time}</td>
                <td>{race.vdot_time}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="small text-body-secondary mb-0">
        <li>
          {withElements((marks) => t('insights.predictions.riegel', marks), {
            name: <strong translate="no">Riegel</strong>,
            exponent: <sup>{decimal(1.06, 2)}</sup>,
          })}
        </li>
        <li>
          {withElements((marks) => t('insights.predictions.vdot', marks), {
            name: <strong translate="no">VDOT</strong>,
          })}
        </li>
      </ul>
    </Panel>
  );
}
