import { useState } from 'react';
import { Link } from 'react-router';
import insights from 'virtual:i18n/insights';
import type { RecordRow } from '../../../../core/insights.js';
import { LazySeriesChart } from '../../../components/charts/lazy-series-chart';
import { EditLink } from '../../../components/edit-link';
import { Panel } from '../../../components/panel';
import { t, useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { runEditPath, runPagePath } from '../../../lib/run-paths';
import { useTrack } from '../../../lib/track-api';
import { useRecords } from '../api/get-records';
import { distanceLabel, minutesOf } from './format';

/** The best time at each standard distance, and how it came down over time. */
export function RecordsPanel() {
  useT(insights);
  const { data: records, isError } = useRecords();
  if (isError) return <p className="text-danger">{t('insights.records.loadError')}</p>;
  if (!records) return null;
  return (
    <>
      <Panel title={t('insights.records.title')}>
        {records.length === 0 ? (
          <p className="mb-0 text-body-secondary">{t('insights.records.empty')}</p>
        ) : (
          <RecordsTable records={records} />
        )}
      </Panel>
      {records.length > 0 ? <ProgressionPanel records={records} /> : null}
    </>
  );
}

/**
 * Where a record from a best effort was run (§15): "Fastest 5 km within your 17.1 km run, from km
 * 6.2", read from the run's track (its length, and where the effort starts).
 */
function EffortPlace({ record }: { record: RecordRow }) {
  const display = useDisplay();
  const { data: track } = useTrack(record.entry_id);
  const effort = track?.best_efforts.find((e) => e.key === record.key);
  const distances = track?.series?.distance;
  if (!effort || !distances || distances.length === 0) {
    return (
      <div className="small text-body-secondary">
        {t('insights.records.effortSomewhere', { distance: distanceLabel(record.key) })}
      </div>
    );
  }
  const unit = display.labels.distance;
  const length = display.formatDistance((distances.at(-1)! - distances[0]!) / 1000);
  const from = display.formatDistance(effort.start / 1000);
  return (
    <div className="small text-body-secondary">
      {t('insights.records.effortPlace', { distance: distanceLabel(record.key), length, unit, from })}
    </div>
  );
}

function RecordsTable({ records }: { records: RecordRow[] }) {
  const display = useDisplay();
  const pace = t('insights.records.pace', { unit: display.labels.pace });
  return (
    <>
      <p className="small text-body-secondary">{t('insights.records.rule')}</p>
      <div className="table-responsive">
        <table className="table table-striped align-middle mb-0 table-stack">
          <caption className="visually-hidden">{t('insights.records.table')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('insights.records.distance')}</th>
              <th scope="col">{t('insights.records.time')}</th>
              <th scope="col">{pace}</th>
              <th scope="col">{t('insights.records.date')}</th>
              <th scope="col" className="text-end">
                <span className="visually-hidden">{t('insights.records.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {records.map((r) => {
              const date = display.formatDate(r.date);
              return (
                <tr key={r.key}>
                  <td data-label={t('insights.records.distance')} className="fw-semibold">
                    {distanceLabel(r.key)}
                  </td>
                  <td data-label={t('insights.records.time')}>{r.time}</td>
                  <td data-label={pace}>{display.formatPace(r.pace)}</td>
                  <td data-label={t('insights.records.date')}>
                    <Link
                      to={
                        r.source === 'best_effort'
                          ? `${runPagePath(r.entry_id)}?effort=${r.key}`
                          : runPagePath(r.entry_id)
                      }
                    >
                      {date}
                    </Link>
                    {r.source === 'best_effort' ? <EffortPlace record={r} /> : null}
                  </td>
                  <td className="text-end stack-actions">
                    <EditLink
                      to={runEditPath(r.entry_id)}
                      label={t('insights.records.editRecordRun', { distance: distanceLabel(r.key), date })}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

function ProgressionPanel({ records }: { records: RecordRow[] }) {
  const display = useDisplay();
  const [key, setKey] = useState(records[0]!.key);
  const record = records.find((r) => r.key === key) ?? records[0]!;
  return (
    <Panel title={t('insights.progression.title')}>
      <div className="mb-3" style={{ maxWidth: 240 }}>
        <label htmlFor="progression-distance" className="form-label">
          {t('insights.progression.distance')}
        </label>
        <select
          id="progression-distance"
          className="form-select"
          value={record.key}
          onChange={(event) => setKey(event.target.value)}
        >
          {records.map((r) => (
            <option key={r.key} value={r.key}>
              {distanceLabel(r.key)}
            </option>
          ))}
        </select>
      </div>
      <LazySeriesChart
        kind="line"
        height={260}
        labels={record.progression.map((mark) => display.formatDate(mark.date))}
        series={[
          {
            label: t('insights.progression.time'),
            values: record.progression.map((mark) => minutesOf(mark.time)),
            color: '#f87979',
          },
        ]}
        label={t('insights.progression.chart', { distance: distanceLabel(record.key) })}
        yTitle={t('insights.progression.time')}
        reverse
      />
      <ol className="small mt-3 mb-0">
        {record.progression.map((mark) => {
          const date = display.formatDate(mark.date);
          return (
            <li key={mark.entry_id} className="mb-1">
              <Link to={runPagePath(mark.entry_id)}>{date}</Link>: {mark.time}{' '}
              <EditLink to={runEditPath(mark.entry_id)} label={t('insights.editRun', { date })} className="ms-1" />
            </li>
          );
        })}
      </ol>
    </Panel>
  );
}
