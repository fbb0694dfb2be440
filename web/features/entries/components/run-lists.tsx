import { Link } from 'react-router';
import type { Entry } from '../../../../core/schemas.js';
import { formatCount } from '../../../../core/format.js';
import { EditLink } from '../../../components/edit-link';
import { Panel } from '../../../components/panel';
import { useDisplay } from '../../../lib/display';
import { runEditPath, runPagePath } from '../../../lib/run-paths';
import { useEntries } from '../api/get-entries';

const RECENT = 5;
const PERIOD_PAGE = 15;

/** A short list of runs: each one's date (and title) opens its page, then its numbers and edit pencil. */
function RunItems({ runs }: { runs: readonly Entry[] }) {
  const display = useDisplay();
  return (
    <ul className="list-unstyled mb-2">
      {runs.map((run) => {
        const date = display.formatDate(run.date);
        return (
          <li key={run.id} className="d-flex flex-wrap align-items-center gap-2 py-2 border-bottom">
            <Link to={runPagePath(run.id)} className="fw-semibold cell-text">
              {run.title ? `${date} · ${run.title}` : date}
            </Link>
            <span className="text-body-secondary">
              {display.formatDistance(run.distance)} {display.labels.distance} · {run.time} · {display.runPace(run)}{' '}
              {display.labels.pace}
            </span>
            <EditLink to={runEditPath(run.id)} label={`Edit entry of ${date}`} className="ms-auto" />
          </li>
        );
      })}
    </ul>
  );
}

/** The dashboard's answer to "what did I just do?": the last five runs, each opening its page. */
export function RecentRuns() {
  const list = useEntries({ page: 1, perPage: RECENT });
  const runs = list.data?.entries.data;
  return (
    <Panel title="Recent runs">
      {list.isError ? (
        <p className="text-danger mb-0">Your runs could not be loaded.</p>
      ) : !runs ? (
        <p className="text-body-secondary mb-0">Loading…</p>
      ) : runs.length === 0 ? (
        <p className="mb-0">No runs yet: the runs you add show here.</p>
      ) : (
        <>
          <RunItems runs={runs} />
          <Link to="/entries">All your runs</Link>
        </>
      )}
    </Panel>
  );
}

/** The runs between two dates (a goal's period), newest first; the list of all of them when there are more. */
export function PeriodRuns({ dateFrom, dateTo }: { dateFrom: string; dateTo: string }) {
  const list = useEntries({ page: 1, perPage: PERIOD_PAGE, dateFrom, dateTo });
  if (list.isError) return <p className="text-danger mb-0">The runs could not be loaded.</p>;
  if (!list.data) return <p className="text-body-secondary mb-0">Loading…</p>;
  const { data: runs, total } = list.data.entries;
  if (runs.length === 0) return <p className="mb-0">No runs in this period yet.</p>;
  return (
    <>
      <RunItems runs={runs} />
      {total > runs.length ? (
        <Link to={`/entries?dateFrom=${dateFrom}&dateTo=${dateTo}`}>
          All {formatCount(total, 'run')} of this period
        </Link>
      ) : null}
    </>
  );
}
