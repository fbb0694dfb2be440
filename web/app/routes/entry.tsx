import type { QueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { entryQueryOptions } from '../../features/entries/api/get-entry';
import { shoesQueryOptions } from '../../features/shoes/api/get-shoes';
import { trackQueryOptions } from '../../lib/track-api';
import { RunScreen } from './run-screen';

export function Component() {
  const id = Number(useParams().id);
  return <RunScreen key={id} id={id} place="own" />;
}

/**
 * Asks for what the run's page shows before it is drawn (`startSignedInScreen`, routes.tsx): the run,
 * the runner's shoes and the run's track, at once (a run without a track answers that it has none).
 */
export function prefetch(queryClient: QueryClient, path: string): void {
  const id = Number(path.split('/').at(-1));
  void queryClient.prefetchQuery(entryQueryOptions(id));
  void queryClient.prefetchQuery(shoesQueryOptions());
  void queryClient.prefetchQuery(trackQueryOptions(id));
}
