import dashboard from 'virtual:i18n/dashboard';
import { PageTitle } from '../../components/page-title';
import { Panel } from '../../components/panel';
import { DashboardStats } from '../../features/dashboard/components/dashboard-stats';
import { useUser } from '../../features/auth/api/get-me';
import { useUpdateProfile } from '../../features/profile/api/update-profile';
import { CreateEntryForm } from '../../features/entries/components/create-entry-form';
import { RecentRuns } from '../../features/entries/components/run-lists';
import { WaitingRuns } from '../../features/entries/components/waiting-runs';
import { GoalsPanel } from '../../features/goals/components/goal-progress';
import { TodayLoadWarnings } from '../../features/insights/components/load-warnings';
import { StreaksCard } from '../../features/insights/components/streaks-card';
import { useQueries, type QueryClient } from '@tanstack/react-query';
import { dashboardQueryOptions } from '../../features/dashboard/api/get-dashboard';
import { loadQueryOptions } from '../../features/insights/api/get-load';
import { shoesQueryOptions, useShoes } from '../../features/shoes/api/get-shoes';
import common from 'virtual:i18n/common';
import { ShoeAlerts } from '../../features/shoes/components/shoe-alerts';
import { useT } from '../../i18n/runtime';
import { useDrawnInSlices } from '../../lib/drawn-in-slices';
import { goalsQueryOptions } from '../../features/goals/api/get-goals';
import { streaksQueryOptions } from '../../features/insights/api/get-streaks';
import { recentRunsQueryOptions } from '../../features/entries/components/run-lists';

/**
 * Every answer the dashboard's panels show. The page waits for all of them (below); they are also
 * asked for as soon as the page's code and the session are there (`startSignedInScreen`, routes.tsx),
 * not once React has drawn the page.
 */
export const answers = () =>
  [
    dashboardQueryOptions(),
    loadQueryOptions(),
    shoesQueryOptions(),
    recentRunsQueryOptions(),
    goalsQueryOptions(),
    streaksQueryOptions(),
  ] as const;

/** Asks for the dashboard's answers before it is drawn (`startSignedInScreen`, routes.tsx). */
export function prefetch(queryClient: QueryClient): void {
  const [dashboardAnswer, load, shoes, recentRuns, goals, streaks] = answers();
  void queryClient.prefetchQuery(dashboardAnswer);
  void queryClient.prefetchQuery(load);
  void queryClient.prefetchQuery(shoes);
  void queryClient.prefetchQuery(recentRuns);
  void queryClient.prefetchQuery(goals);
  void queryClient.prefetchQuery(streaks);
}

export function Component() {
  const t = useT(dashboard);
  const user = useUser();
  const units = user?.units ?? 'km';
  const update = useUpdateProfile();
  const shoes = useShoes();
  useT(common);
  // The page asks for every answer its panels show at once and waits for all of them, so that
  // nothing arrives late above what the runner is reading (a phone's whole screen moved down by a
  // load warning, CLS 0.8 in `npm run bench:web`) and the panels are drawn once, not in waves.
  const pending = useQueries({ queries: answers(), combine: (results) => results.some((query) => query.isPending) });
  const ready = useDrawnInSlices(!pending);
  if (!ready) {
    // Started without a network (CONTRACT.md §20): the answers wait for it, a run can be added meanwhile.
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    return (
      <>
        <PageTitle title={t('dashboard.title')}>{t('dashboard.title')}</PageTitle>
        <WaitingRuns />
        {/* A screen's height held while the panels load: the footer waits below it instead of jumping down. */}
        <p className="text-body-secondary min-vh-100">{t('common.loading')}</p>
        {offline && (
          <Panel title={t('dashboard.addRun')}>
            <CreateEntryForm />
          </Panel>
        )}
      </>
    );
  }
  return (
    <>
      <PageTitle title={t('dashboard.title')}>{t('dashboard.title')}</PageTitle>
      <WaitingRuns />
      <ShoeAlerts units={units} />
      <TodayLoadWarnings />
      <div className="row">
        <div className="col-xl-8">
          <DashboardStats welcome={{ user, update }} />
          <RecentRuns />
        </div>
        <div className="col-xl-4">
          <Panel title={t('dashboard.addRun')}>
            <CreateEntryForm shoes={shoes.data} />
          </Panel>
          <GoalsPanel units={units} />
          <StreaksCard />
        </div>
      </div>
    </>
  );
}
