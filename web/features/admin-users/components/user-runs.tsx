import { Link } from 'react-router';
import { formatCount } from '../../../../core/format.js';
import { Panel } from '../../../components/panel';
import { useDisplay } from '../../../lib/display';
import { useUserEntries } from '../api/get-user-entries';

/** A user's runs in short for the admin: how many, how far, the last one, and the way to all of them. */
export function UserRuns({ userId, name }: { userId: number; name: string }) {
  const display = useDisplay();
  // The newest run and the totals of all of them, in one request.
  const runs = useUserEntries(userId, { page: 1, perPage: 1 });
  const summary = runs.data?.summary;
  const last = runs.data?.entries.data[0];
  return (
    <Panel title="Runs">
      {runs.isError ? (
        <p className="text-danger mb-0">The runs of this user could not be loaded.</p>
      ) : !summary ? (
        <p className="text-body-secondary mb-0">Loading…</p>
      ) : summary.runs === 0 ? (
        <p className="mb-0">{name} has no runs yet.</p>
      ) : (
        <>
          <dl className="row">
            <dt className="col-sm-3">Runs</dt>
            <dd className="col-sm-9">{formatCount(summary.runs, 'run')}</dd>
            <dt className="col-sm-3">Distance</dt>
            <dd className="col-sm-9">
              {display.formatDistance(summary.distance)} {display.labels.distance}
            </dd>
            <dt className="col-sm-3">Last run</dt>
            <dd className="col-sm-9">
              {last ? (
                <Link to={`/admin/entry/${last.id}`}>
                  {display.formatDate(last.date)}, {display.runDistance(last.distance)} {display.labels.distance} in{' '}
                  {last.time}
                </Link>
              ) : (
                '—'
              )}
            </dd>
          </dl>
          <Link to={`/admin/user/${userId}/entries`}>All runs of {name}</Link>
        </>
      )}
    </Panel>
  );
}
