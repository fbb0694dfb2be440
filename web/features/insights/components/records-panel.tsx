import { useState } from 'react';
import { Link } from 'react-router';
import type { RecordRow } from '../../../../core/insights.js';
import { LazySeriesChart } from '../../../components/charts/lazy-series-chart';
import { EditLink } from '../../../components/edit-link';
import { Panel } from '../../../components/panel';
import { useDisplay } from '../../../lib/display';
import { runEditPath, runPagePath } from '../../../lib/run-paths';
import { useTrack } from '../../../lib/track-api';
import { useRecords } from '../api/get-records';
import { distanceLabel, minutesOf } from './format';

/** The best time at each standard distance, and how it came down over time. */
export function RecordsPanel() {
  const { data: records, isError } = useRecords();
  if (isError) return <p className="text-danger">The records could not be loaded.</p>;
  if (!records) return null;
  return (
    <>
      <Panel title="Personal records">
        {records.length === 0 ? (
          <p className="mb-0 text-body-secondary">
            No records yet: a run counts for a distance when it is that distance or up to 3% longer.
          </p>
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
    return <div className="small text-body-secondary">The fastest {distanceLabel(record.key)} within a longer run</div>;
  }
  const unit = display.labels.distance;
  const length = display.formatDistance((distances.at(-1)! - distances[0]!) / 1000);
  const from = display.formatDistance(effort.start / 1000);
  return (
    <div className="small text-body-secondary">
      Fastest {distanceLabel(record.key)} within your {length} {unit} run, from {unit} {from}
    </div>
  );
}

function RecordsTable({ records }: { records: RecordRow[] }) {
  const display = useDisplay();
  return (
    <>
      <p className="small text-body-secondary">
        A run with a recorded track counts through its fastest stretch of each distance, wherever it was within the run.
        Another run counts for a distance when it measures that distance to 3% more; its time is scaled to the exact
        distance (a 5.1 km run in 25:30 counts as 25:00 for 5 km).
      </p>
      <div className="table-responsive">
        <table className="table table-striped align-middle mb-0 table-stack">
          <caption className="visually-hidden">Personal records by distance</caption>
          <thead>
            <tr>
              <th scope="col">Distance</th>
              <th scope="col">Time</th>
              <th scope="col">Pace ({display.labels.pace})</th>
              <th scope="col">Date</th>
              <th scope="col" className="text-end">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {records.map((r) => {
              const date = display.formatDate(r.date);
              return (
                <tr key={r.key}>
                  <td data-label="Distance" className="fw-semibold">
                    {distanceLabel(r.key)}
                  </td>
                  <td data-label="Time">{r.time}</td>
                  <td data-label={`Pace (${display.labels.pace})`}>{display.formatPace(r.pace)}</td>
                  <td data-label="Date">
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
                      label={`Edit the ${distanceLabel(r.key)} record run of ${date}`}
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
    <Panel title="Progression">
      <div className="mb-3" style={{ maxWidth: 240 }}>
        <label htmlFor="progression-distance" className="form-label">
          Distance
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
        series={[{ label: 'Time', values: record.progression.map((mark) => minutesOf(mark.time)), color: '#f87979' }]}
        label={`Each new ${distanceLabel(record.key)} record over time, faster lower`}
        yTitle="Time"
        reverse
      />
      <ol className="small mt-3 mb-0">
        {record.progression.map((mark) => {
          const date = display.formatDate(mark.date);
          return (
            <li key={mark.entry_id} className="mb-1">
              <Link to={runPagePath(mark.entry_id)}>{date}</Link>: {mark.time}{' '}
              <EditLink to={runEditPath(mark.entry_id)} label={`Edit the run of ${date}`} className="ms-1" />
            </li>
          );
        })}
      </ol>
    </Panel>
  );
}
