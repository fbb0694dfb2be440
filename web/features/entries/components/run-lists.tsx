import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import entries from 'virtual:i18n/entries';
import type { Entry } from '../../../../core/schemas.js';
import { EditLink } from '../../../components/edit-link';
import { Panel } from '../../../components/panel';
import { useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { runEditPath, runPagePath } from '../../../lib/run-paths';
import { entriesQueryOptions, useEntries } from '../api/get-entries';

const RECENT = 5;
const PERIOD_PAGE = 15;

/** A short list of runs: each one's date (and title) opens its page, then its numbers and edit pencil. */
function RunItems({ runs }: { runs: readonly Entry[] }) {
  const t = useT(entries);
  const display = useDisplay();
  return (
    <ul className="list-unstyled mb-2">
      {runs.map((run) => {
        const date = display.formatDate(run.date);
        return (
          <li key={run.id} className="d-flex flex-wrap align-items-center gap-2 py-2 border-bottom">
            <Link to={runPagePath(run.id)} className="fw-semibold cell-text">
              {run.title ? (
                <>
                  {date} · <span translate="no">{run.title}</span>
                </>
              ) : (
                date
              )}
            </Link>
            <span className="text-body-secondary">
              {t('entries.runLine', {
                distance: display.formatDistance(run.distance),
                distanceUnit: display.labels.distance,
                time: run.time,
                pace: display.runPace(run),
                paceUnit: display.labels.pace,
              })}
            </span>
            <EditLink to={runEditPath(run.id)} label={t('entries.editLabel', { date })} className="ms-auto" />
          </li>
        );
      })}
    </ul>
  );
}

/** The answer of the dashboard's recent runs (the dashboard asks for it with its other answers). */
export const recentRunsQueryOptions = () => entriesQueryOptions({ page: 1, perPage: RECENT });
export const useRecentRuns = () => useQuery(recentRunsQueryOptions());

/** The dashboard's answer to "what did I just do?": the last five runs, each opening its page. */
export function RecentRuns() {
  const t = useT(entries);
  const list = useRecentRuns();
  const runs = list.data?.entries.data;
  return (
    <Panel title={t('entries.recent.title')}>
      {list.isError ? (
        <p className="text-danger mb-0">{t('entries.recent.loadError')}</p>
      ) : !runs ? (
        <p className="text-body-secondary mb-0">{t('entries.loading')}</p>
      ) : runs.length === 0 ? (
        <p className="mb-0">{t('entries.recent.empty')}</p>
      ) : (
        <>
          <RunItems runs={runs} />
          <Link to="/entries">{t('entries.recent.all')}</Link>
        </>
      )}
    </Panel>
  );
}

/** The runs between two dates (a goal's period), newest first; the list of all of them when there are more. */
export function PeriodRuns({ dateFrom, dateTo }: { dateFrom: string; dateTo: string }) {
  const t = useT(entries);
  const list = useEntries({ page: 1, perPage: PERIOD_PAGE, dateFrom, dateTo });
  if (list.isError) return <p className="text-danger mb-0">{t('entries.runsLoadError')}</p>;
  if (!list.data) return <p className="text-body-secondary mb-0">{t('entries.loading')}</p>;
  const { data: runs, total } = list.data.entries;
  if (runs.length === 0) return <p className="mb-0">{t('entries.period.empty')}</p>;
  return (
    <>
      <RunItems runs={runs} />
      {total > runs.length ? (
        <Link to={`/entries?dateFrom=${dateFrom}&dateTo=${dateTo}`}>{t('entries.period.all', { count: total })}</Link>
      ) : null}
    </>
  );
}
