import { useState } from 'react';
import { Link } from 'react-router';
import type { RecordRow } from '../../../../core/insights.js';
import { LazySeriesChart } from '../../../components/charts/lazy-series-chart';
import { Panel } from '../../../components/panel';
import { useDisplay } from '../../../lib/display';
import { useRecords } from '../api/get-records';
import { clock, distanceLabel, fullDate, minutesOf } from './format';

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

function RecordsTable({ records }: { records: RecordRow[] }) {
  const display = useDisplay();
  return (
    <>
      <p className="small text-body-secondary">
        A run counts for a distance when it measures that distance to 3% more; its time is scaled to the exact distance
        (a 5.1 km run in 25:30 counts as 25:00 for 5 km).
      </p>
      <div className="table-responsive">
        <table className="table table-striped align-middle mb-0">
          <caption className="visually-hidden">Personal records by distance</caption>
          <thead>
            <tr>
              <th scope="col">Distance</th>
              <th scope="col">Time</th>
              <th scope="col">Pace ({display.labels.pace})</th>
              <th scope="col">Date</th>
              <th scope="col">Run</th>
            </tr>
          </thead>
          <tbody>
            {records.map((r) => (
              <tr key={r.key}>
                <th scope="row">{distanceLabel(r.key)}</th>
                <td>{r.time}</td>
                <td>{clock(display.pace(r.pace))}</td>
                <td>{fullDate(r.date)}</td>
                <td>
                  <Link
                    to={`/entry/edit/${r.entry_id}`}
                    aria-label={`The ${distanceLabel(r.key)} record run of ${fullDate(r.date)}`}
                  >
                    Open
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function ProgressionPanel({ records }: { records: RecordRow[] }) {
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
        labels={record.progression.map((mark) => mark.date)}
        series={[{ label: 'Time', values: record.progression.map((mark) => minutesOf(mark.time)), color: '#f87979' }]}
        label={`Each new ${distanceLabel(record.key)} record over time, faster lower`}
        yTitle="Time"
        reverse
      />
      <ol className="small mt-3 mb-0">
        {record.progression.map((mark) => (
          <li key={mark.entry_id}>
            {fullDate(mark.date)}: <Link to={`/entry/edit/${mark.entry_id}`}>{mark.time}</Link>
          </li>
        ))}
      </ol>
    </Panel>
  );
}
