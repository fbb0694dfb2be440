import { Link, useSearchParams } from 'react-router';
import runTexts from 'virtual:i18n/run';
import { BackButton } from '../../components/back-button';
import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';
import { useEntry } from '../../features/entries/api/get-entry';
import { RunAbout, RunNumbers, runHeading } from '../../features/entries/components/run-details';
import { useShoeNames } from '../../features/shoes/api/get-shoes';
import { useT } from '../../i18n/runtime';
import { MarkSegment, useSegmentMarking } from '../../features/routes/components/mark-segment';
import { RunPlaces } from '../../features/routes/components/run-places';
import { TrackSections } from '../../features/tracks/components/track-sections';
import { useTrack } from '../../lib/track-api';
import { ApiError } from '../../lib/api-client';
import { useDisplay } from '../../lib/display';
import { runEditPath, type RunPlace } from '../../lib/run-paths';
import { useGoBack } from '../../lib/use-go-back';

/** A missing run (or another runner's): said plainly, with the way back. */
function RunNotFound({ list }: { list: string }) {
  const t = useT(runTexts);
  return (
    <div className="py-4">
      <PageTitle title={t('run.notFound.title')}>{t('run.notFound.title')}</PageTitle>
      <p>{t('run.notFound.body')}</p>
      <Link to={list} className="btn btn-primary">
        {t('run.notFound.back')}
      </Link>
    </div>
  );
}

/** A run's page (CONTRACT.md §14): the runner's at /entry/{id}, the admin's at /admin/entry/{id}. */
export function RunScreen({ id, place }: { id: number; place: RunPlace }) {
  const t = useT(runTexts);
  const list = place === 'admin' ? '/admin/entries' : '/entries';
  const valid = Number.isSafeInteger(id) && id > 0;
  const entry = useEntry(id, { enabled: valid });
  const viewer = useUser();
  const shoeName = useShoeNames();
  const display = useDisplay();
  const goBack = useGoBack(list);
  const [search] = useSearchParams();
  const effort = search.get('effort');
  const marking = useSegmentMarking();
  if (!valid || (entry.error instanceof ApiError && entry.error.status === 404)) return <RunNotFound list={list} />;
  if (entry.isError) return <p className="text-danger">{t('run.loadError')}</p>;
  if (!entry.data) return <p className="text-body-secondary">{t('run.loading')}</p>;
  const run = entry.data;
  // The viewer's own shoes are named; another runner's shoe (an admin's view) only said to be there.
  const ownShoe = run.shoe_id !== null && run.user_id === viewer?.id ? shoeName(run.shoe_id) : undefined;
  const shoe =
    run.shoe_id === null ? null : run.user_id === viewer?.id ? (
      ownShoe !== undefined ? (
        <span translate="no">{ownShoe}</span>
      ) : (
        t('run.ownShoe')
      )
    ) : (
      t('run.othersShoe')
    );
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
              {t('run.edit')}
            </Link>
          </>
        }
      >
        {/* A run's own title is the runner's words, not the app's. */}
        {run.title === null ? heading : <span translate="no">{heading}</span>}
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
          marking={marking.marking}
          afterCharts={place === 'own' ? <RunExtras entryId={run.id} marking={marking} /> : null}
        />
      ) : (
        about
      )}
    </>
  );
}

/**
 * A recorded run's route and segments (CONTRACT.md §22), and marking a new segment on it: only on
 * the runner's own page, for a track with positions and distances.
 */
function RunExtras({ entryId, marking }: { entryId: number; marking: ReturnType<typeof useSegmentMarking> }) {
  // Already loaded by the track's sections, which show this.
  const { data: track } = useTrack(entryId);
  const distance = track?.series?.distance;
  if (!track?.route || !distance || distance.length < 2) return null;
  return (
    <>
      <RunPlaces entryId={entryId} />
      <MarkSegment entryId={entryId} lengthM={distance[distance.length - 1]! - distance[0]!} state={marking} />
    </>
  );
}
