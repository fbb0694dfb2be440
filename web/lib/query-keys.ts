import type { QueryClient } from '@tanstack/react-query';
import { sessionKeys } from './session-keys';

/**
 * Every query key of the app in one place, so that a feature can refresh data
 * another feature shows without importing it.
 */
export const queryKeys = {
  ...sessionKeys,
  entries: ['entries'] as const,
  entryList: (scope: 'mine' | 'all', params: object) => ['entries', scope, params] as const,
  entry: (id: number) => ['entries', 'detail', id] as const,
  dashboard: ['dashboard'] as const,
  adminDashboard: ['admin-dashboard'] as const,
  weeklyReport: ['weekly-report'] as const,
  shoes: ['shoes'] as const,
  goals: ['goals'] as const,
  weeklyReportFor: (year: number) => ['weekly-report', year] as const,
  insights: ['insights'] as const,
  insight: (name: string, ...params: (string | number)[]) => ['insights', name, ...params] as const,
  users: ['users'] as const,
  tokens: ['tokens'] as const,
  calendarFeed: ['calendar-feed'] as const,
  webhooks: ['webhooks'] as const,
  inbox: ['inbox'] as const,
  routes: ['routes'] as const,
  route: (id: number) => ['routes', 'detail', id] as const,
  segments: ['segments'] as const,
  segment: (id: number) => ['segments', 'detail', id] as const,
  userList: (params: object) => ['users', 'list', params] as const,
  user: (id: number) => ['users', 'detail', id] as const,
};

/** After a run is added, changed or removed, everything computed from runs is out of date. */
export function invalidateRunData(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [
      queryKeys.entries,
      queryKeys.dashboard,
      queryKeys.weeklyReport,
      queryKeys.adminDashboard,
      queryKeys.insights,
      // A shoe's distance and a goal's progress add up runs.
      queryKeys.shoes,
      queryKeys.goals,
      // Routes and segment efforts follow every run (CONTRACT.md §22).
      queryKeys.routes,
      queryKeys.segments,
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

/** After a user is changed or removed, user lists and statistics are out of date. */
export function invalidateUserData(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [queryKeys.users, queryKeys.adminDashboard, queryKeys.entries].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
