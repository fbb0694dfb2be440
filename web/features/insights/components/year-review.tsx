import { Link } from 'react-router';
import insights from 'virtual:i18n/insights';
import type { Calendar, YearReview as Review } from '../../../../core/insights.js';
import type { Entry } from '../../../../core/schemas.js';
import { formatDuration } from '../../../../core/time.js';
import { LazySeriesChart } from '../../../components/charts/lazy-series-chart';
import { EditLink } from '../../../components/edit-link';
import { Panel } from '../../../components/panel';
import { t, useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { runEditPath, runPagePath } from '../../../lib/run-paths';
import { useCalendar, useYear } from '../api/get-year';
import { distanceLabel } from './format';
import { LazyCalendarHeatmap } from './lazy-calendar-heatmap';

/** The months' short names, January first (the chart's labels). */
const months = () => [
  t('insights.months.jan'),
  t('insights.months.feb'),
  t('insights.months.mar'),
  t('insights.months.apr'),
  t('insights.months.may'),
  t('insights.months.jun'),
  t('insights.months.jul'),
  t('insights.months.aug'),
  t('insights.months.sep'),
  t('insights.months.oct'),
  t('insights.months.nov'),
  t('insights.months.dec'),
];

/** A calendar year in review: the days, the totals against the year before, months, records, best runs. */
export function YearReview({ year }: { year: number }) {
  useT(insights);
  const { data: review, isError } = useYear(year);
  const { data: calendar } = useCalendar(year);
  if (isError) return <p className="text-danger">{t('insights.year.loadError')}</p>;
  if (!review || !calendar) return null;
  if (review.runs === 0) {
    return (
      <Panel title={t('insights.year.empty.title', { year: review.year })}>
        <p className="mb-0">{t('insights.year.empty.body', { year: review.year })}</p>
      </Panel>
    );
  }
  return (
    <>
      <Panel title={t('insights.year.days.title', { year: review.year })}>
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
          <Panel title={t('insights.year.records.title', { year: review.year })}>
            {review.records.length === 0 ? (
              <p className="mb-0 text-body-secondary">{t('insights.year.records.none')}</p>
            ) : (
              <ul className="mb-0">
                {review.records.map((key) => (
                  <li key={key}>{distanceLabel(key)}</li>
                ))}
              </ul>
            )}
            <p className="small mt-2 mb-0">
              <Link to="/insights/records">{t('insights.year.records.all')}</Link>
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
      <summary>{t('insights.year.days.asTable')}</summary>
      {calendar.days.length === 0 ? (
        <p className="mb-0 text-body-secondary">{t('insights.year.days.none', { year: calendar.year })}</p>
      ) : (
        <div>
          <table className="table table-sm mb-0">
            <caption className="visually-hidden">{t('insights.year.days.table', { year: calendar.year })}</caption>
            <thead>
              <tr>
                <th scope="col">{t('insights.year.days.day')}</th>
                <th scope="col">{t('insights.year.days.distance', { unit: display.labels.distance })}</th>
                <th scope="col">{t('insights.year.days.runs')}</th>
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
    [
      t('insights.year.totals.runs'),
      String(review.runs),
      String(review.previous.runs),
      change(review.runs, review.previous.runs),
    ],
    [
      t('insights.year.totals.distance', { unit: display.labels.distance }),
      display.formatDistance(review.distance),
      display.formatDistance(review.previous.distance),
      change(review.distance, review.previous.distance),
    ],
    [
      t('insights.year.totals.time'),
      formatDuration(review.seconds),
      formatDuration(review.previous.seconds),
      change(review.seconds, review.previous.seconds),
    ],
  ];
  return (
    <Panel title={t('insights.year.totals.title', { year: review.year, previous: review.year - 1 })}>
      <table className="table table-sm mb-2">
        <caption className="visually-hidden">
          {t('insights.year.totals.table', { year: review.year, previous: review.year - 1 })}
        </caption>
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">{review.year}</th>
            <th scope="col">{review.year - 1}</th>
            <th scope="col">{t('insights.year.totals.change')}</th>
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
        {t('insights.year.totals.averagePace', {
          pace: review.avg_pace === null ? '—' : `${display.formatPace(review.avg_pace)} ${display.labels.pace}`,
        })}
      </p>
    </Panel>
  );
}

function MonthsPanel({ review }: { review: Review }) {
  const display = useDisplay();
  return (
    <Panel title={t('insights.year.months.title')}>
      <LazySeriesChart
        kind="bar"
        height={220}
        labels={months()}
        series={[
          {
            label: t('insights.year.months.distance', { unit: display.labels.distance }),
            values: review.months.map((km) => display.distance(km)),
            color: '#7acbf9',
          },
        ]}
        label={t('insights.year.months.chart', { year: review.year, unit: display.labels.distance })}
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
      <strong>{title}</strong>: <Link to={runPagePath(entry.id)}>{date}</Link>,{' '}
      {t('insights.year.best.details', {
        distance: display.runDistance(entry.distance),
        unit: display.labels.distance,
        time: entry.time,
        pace: display.runPace(entry),
        paceUnit: display.labels.pace,
      })}{' '}
      <EditLink to={runEditPath(entry.id)} label={t('insights.editRun', { date })} className="ms-1" />
    </li>
  );
}

function BestRunsPanel({ review }: { review: Review }) {
  return (
    <Panel title={t('insights.year.best.title')}>
      <ul className="list-unstyled mb-0">
        <RunLine title={t('insights.year.best.longest')} entry={review.longest} />
        <RunLine title={t('insights.year.best.fastest')} entry={review.fastest} />
      </ul>
    </Panel>
  );
}
