import { Link, useSearchParams } from 'react-router';
import { BackButton } from '../../components/back-button';
import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';
import { useEntry } from '../../features/entries/api/get-entry';
import { RunAbout, RunNumbers, runHeading } from '../../features/entries/components/run-details';
import { useShoeNames } from '../../features/shoes/api/get-shoes';
import { TrackSections } from '../../features/tracks/components/track-sections';
import { ApiError } from '../../lib/api-client';
import { useDisplay } from '../../lib/display';
import { runEditPath, type RunPlace } from '../../lib/run-paths';
import { useGoBack } from '../../lib/use-go-back';

/** A missing run (or another runner's): said plainly, with the way back. */
function RunNotFound({ list }: { list: string }) {
  return (
    <div className="py-4">
      <PageTitle title="Run not found">Run not found</PageTitle>
      <p>There is no such run, or it is not yours to see.</p>
      <Link to={list} className="btn btn-primary">
        Back to the runs
      </Link>
    </div>
  );
}

/** A run's page (CONTRACT.md §14): the runner's at /entry/{id}, the admin's at /admin/entry/{id}. */
export function RunScreen({ id, place }: { id: number; place: RunPlace }) {
  const list = place === 'admin' ? '/admin/entries' : '/entries';
  const valid = Number.isSafeInteger(id) && id > 0;
  const entry = useEntry(id, { enabled: valid });
  const viewer = useUser();
  const shoeName = useShoeNames();
  const display = useDisplay();
  const goBack = useGoBack(list);
  const [search] = useSearchParams();
  const effort = search.get('effort');
  if (!valid || (entry.error instanceof ApiError && entry.error.status === 404)) return <RunNotFound list={list} />;
  if (entry.isError) return <p className="text-danger">This run could not be loaded.</p>;
  if (!entry.data) return <p className="text-body-secondary">Loading…</p>;
  const run = entry.data;
  // The viewer's own shoes are named; another runner's shoe (an admin's view) only said to be there.
  const shoe =
    run.shoe_id === null
      ? null
      : run.user_id === viewer?.id
        ? (shoeName(run.shoe_id) ?? 'One of your shoes')
        : "One of the runner's shoes";
  const heading = runHeading(run, display.formatDate);
  const about = <RunAbout entry={run} shoe={shoe} editPath={runEditPath(run.id, place)} />;
  return (
    <>
      <PageTitle
        title={heading}
        actions={
          <>
            <BackButton onClick={goBack} />
            <Link to={runEditPath(run.id, place)} className="btn btn-primary">
              Edit
            </Link>
          </>
        }
      >
        {heading}
      </PageTitle>
      <RunNumbers entry={run} />
      {/* A recorded run shows its route right below its numbers, and what the runner wrote after it. */}
      {run.has_track ? (
        <TrackSections
          entryId={run.id}
          display={display}
          effort={effort}
          run={{ distance: run.distance, time: run.time }}
          afterMap={about}
        />
      ) : (
        about
      )}
    </>
  );
}
