import { Link } from 'react-router';
import type { Calendar, YearReview as Review } from '../../../../core/insights.js';
import type { Entry } from '../../../../core/schemas.js';
import { formatDuration } from '../../../../core/time.js';
import { LazySeriesChart } from '../../../components/charts/lazy-series-chart';
import { EditLink } from '../../../components/edit-link';
import { Panel } from '../../../components/panel';
import { useDisplay } from '../../../lib/display';
import { runEditPath, runPagePath } from '../../../lib/run-paths';
import { useCalendar, useYear } from '../api/get-year';
import { distanceLabel } from './format';
import { LazyCalendarHeatmap } from './lazy-calendar-heatmap';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A calendar year in review: the days, the totals against the year before, months, records, best runs. */
export function YearReview({ year }: { year: number }) {
  const { data: review, isError } = useYear(year);
  const { data: calendar } = useCalendar(year);
  if (isError) return <p className="text-danger">The year could not be loaded.</p>;
  if (!review || !calendar) return null;
  if (review.runs === 0) {
    return (
      <Panel title={`No runs in ${review.year}`}>
        <p className="mb-0">
          Nothing to review yet: the days, the totals and the best runs of {review.year} show here once it has runs.
        </p>
      </Panel>
    );
  }
  return (
    <>
      <Panel title={`Every day of ${review.year}`}>
        <LazyCalendarHeatmap calendar={calendar} />
        <CalendarTable calendar={calendar} />
      </Panel>
      <div className="row">
        <div className="col-lg-6">
          <TotalsPanel review={review} />
        </div>
        <div className="col-lg-6">
          <MonthsPanel review={review} />
        </div>
      </div>
      <div className="row">
        <div className="col-lg-6">
          <BestRunsPanel review={review} />
        </div>
        <div className="col-lg-6">
          <Panel title={`Records set in ${review.year}`}>
            {review.records.length === 0 ? (
              <p className="mb-0 text-body-secondary">No new record this year.</p>
            ) : (
              <ul className="mb-0">
                {review.records.map((key) => (
                  <li key={key}>{distanceLabel(key)}</li>
                ))}
              </ul>
            )}
            <p className="small mt-2 mb-0">
              <Link to="/insights/records">All records and their progression</Link>
            </p>
          </Panel>
        </div>
      </div>
    </>
  );
}

function CalendarTable({ calendar }: { calendar: Calendar }) {
  const display = useDisplay();
  return (
    <details className="mt-3">
      <summary>The days with runs as a table</summary>
      {calendar.days.length === 0 ? (
        <p className="mb-0 text-body-secondary">No runs in {calendar.year}.</p>
      ) : (
        <div>
          <table className="table table-sm mb-0">
            <caption className="visually-hidden">Days of {calendar.year} with runs</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Distance ({display.labels.distance})</th>
                <th scope="col">Runs</th>
              </tr>
            </thead>
            <tbody>
              {calendar.days.map(([date, km, runs]) => (
                <tr key={date}>
                  <th scope="row">{display.formatDate(date)}</th>
                  <td>{display.formatDistance(km)}</td>
                  <td>{runs}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}

function TotalsPanel({ review }: { review: Review }) {
  const display = useDisplay();
  const change = (now: number, before: number) =>
    before === 0 ? '—' : `${now >= before ? '+' : ''}${Math.round(((now - before) / before) * 100)}%`;
  const rows: [string, string, string, string][] = [
    ['Runs', String(review.runs), String(review.previous.runs), change(review.runs, review.previous.runs)],
    [
      `Distance (${display.labels.distance})`,
      display.formatDistance(review.distance),
      display.formatDistance(review.previous.distance),
      change(review.distance, review.previous.distance),
    ],
    [
      'Time',
      formatDuration(review.seconds),
      formatDuration(review.previous.seconds),
      change(review.seconds, review.previous.seconds),
    ],
  ];
  return (
    <Panel title={`${review.year} against ${review.year - 1}`}>
      <table className="table table-sm mb-2">
        <caption className="visually-hidden">
          Totals of {review.year} and {review.year - 1}
        </caption>
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">{review.year}</th>
            <th scope="col">{review.year - 1}</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, now, before, delta]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{now}</td>
              <td>{before}</td>
              <td>{delta}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="small mb-0">
        Average pace: {review.avg_pace === null ? '—' : `${display.formatPace(review.avg_pace)} ${display.labels.pace}`}
      </p>
    </Panel>
  );
}

function MonthsPanel({ review }: { review: Review }) {
  const display = useDisplay();
  return (
    <Panel title="Distance by month">
      <LazySeriesChart
        kind="bar"
        height={220}
        labels={MONTHS}
        series={[
          {
            label: `Distance (${display.labels.distance})`,
            values: review.months.map((km) => display.distance(km)),
            color: '#7acbf9',
          },
        ]}
        label={`Distance per month of ${review.year}, in ${display.labels.distance}`}
      />
    </Panel>
  );
}

function RunLine({ title, entry }: { title: string; entry: Entry | null }) {
  const display = useDisplay();
  if (!entry) {
    return (
      <li className="mb-1">
        <strong>{title}</strong>: —
      </li>
    );
  }
  const date = display.formatDate(entry.date);
  return (
    <li className="mb-2">
      <strong>{title}</strong>: <Link to={runPagePath(entry.id)}>{date}</Link>, {display.runDistance(entry.distance)}{' '}
      {display.labels.distance} in {entry.time} ({display.runPace(entry)} {display.labels.pace}){' '}
      <EditLink to={runEditPath(entry.id)} label={`Edit the run of ${date}`} className="ms-1" />
    </li>
  );
}

function BestRunsPanel({ review }: { review: Review }) {
  return (
    <Panel title="Longest and fastest runs">
      <ul className="list-unstyled mb-0">
        <RunLine title="Longest" entry={review.longest} />
        <RunLine title="Fastest (5 km or more)" entry={review.fastest} />
      </ul>
    </Panel>
  );
}
