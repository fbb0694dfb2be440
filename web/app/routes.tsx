import type { QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { ensureSession } from '../features/auth/api/get-me';
import { firstScreenAt } from './first-screens';
import { Guard, guestOnly, loginRequired, SessionGate } from './guards';
import { loadRunnerMenus } from './layout/navbar';
import { NarrowPage, RootLayout } from './layout/root-layout';
import { SessionExpiryRedirect } from './session-expiry';

/** A screen's module: its `Component`, and `prefetch` if it asks for its first answers before it is drawn. */
interface ScreenModule {
  Component: ComponentType;
  prefetch?: (queryClient: QueryClient, path: string) => void;
}

/**
 * A screen of `app/routes/` (its `Component` export) as a lazy chunk, with `start` to begin loading
 * it before it renders (the same load: it runs once).
 */
const screen = (load: () => Promise<ScreenModule>) => {
  let loading: Promise<ScreenModule> | undefined;
  const start = () => (loading ??= load());
  return Object.assign(
    lazy(() => start().then((module) => ({ default: module.Component }))),
    { start },
  );
};

const Home = screen(() => import('./routes/home'));
const Policy = screen(() => import('./routes/policy'));
const DeleteAccount = screen(() => import('./routes/delete-account'));
const Login = screen(() => import('./routes/login'));
const Register = screen(() => import('./routes/register'));
const ForgotPassword = screen(() => import('./routes/forgot-password'));
const ResetPassword = screen(() => import('./routes/reset-password'));
const VerifyEmail = screen(() => import('./routes/verify-email'));
const AcceptInvitation = screen(() => import('./routes/accept-invitation'));
const ConfirmEmail = screen(() => import('./routes/confirm-email'));
const Profile = screen(() => import('./routes/profile'));
const Dashboard = screen(() => import('./routes/dashboard'));
const Entries = screen(() => import('./routes/entries'));
const EntryNew = screen(() => import('./routes/entry-new'));
const EntryEdit = screen(() => import('./routes/entry-edit'));
const RunPage = screen(() => import('./routes/entry'));
const WeeklyReport = screen(() => import('./routes/weekly-report'));
const InsightsRecords = screen(() => import('./routes/insights-records'));
const InsightsLoad = screen(() => import('./routes/insights-load'));
const InsightsYear = screen(() => import('./routes/insights-year'));
const InsightsMap = screen(() => import('./routes/insights-map'));
const Goals = screen(() => import('./routes/goals'));
const Shoes = screen(() => import('./routes/shoes'));
const Shoe = screen(() => import('./routes/shoe'));
const RoutesPage = screen(() => import('./routes/routes'));
const RoutePage = screen(() => import('./routes/route'));
const SegmentsPage = screen(() => import('./routes/segments'));
const SegmentPage = screen(() => import('./routes/segment'));
const YourData = screen(() => import('./routes/data'));
const Admin = screen(() => import('./routes/admin/admin-routes'));
const NotFound = screen(() => import('./routes/not-found'));
const Logout = screen(() => import('./routes/logout'));

/**
 * Starts loading what a signed-in runner's first screen shows while the session is being checked:
 * the runner's menus, and the screen's chunks if it is one they open first (app/first-screens.ts:
 * the dashboard, a run's page) and its answers (first-answers.ts, taken by its `prefetch`). Nothing shows before all are in
 * (below); each waited for the session check, or for the screen to be drawn, a round trip or more
 * on a phone's network (decisions 054 and 055).
 */
export function startSignedInScreen(path: string, queryClient: QueryClient): void {
  void loadRunnerMenus();
  const name = firstScreenAt(path);
  if (name === null) return;
  void import('./first-answers').then((answers) => answers.askFirstAnswers(name, path));
  const first = { dashboard: Dashboard, 'run-page': RunPage }[name];
  // Its answers are asked for once its code has come and the session is known to be good (a revoked
  // token asks for nothing): while React draws the page, not after.
  void Promise.all([first.start(), ensureSession(queryClient)]).then(([module, user]) => {
    if (user !== null) module.prefetch?.(queryClient, path);
  });
}

/**
 * Every screen of SPEC §2. Nothing shows until the session has been checked and
 * the first screen's chunk has arrived; later navigations are transitions, so the
 * current screen stays until the next one's chunk is there. Guards are layout routes.
 */
export function AppRoutes() {
  return (
    <>
      <SessionExpiryRedirect />
      <Suspense fallback={null}>
        <SessionGate>
          <Routes>
            <Route path="/" element={<RootLayout />}>
              <Route index element={<Home />} />
              {/* Forms and reading pages are narrow and centred; the rest takes the page's width (styles.css). */}
              <Route element={<NarrowPage />}>
                <Route path="policy" element={<Policy />} />
                <Route path="delete-account" element={<DeleteAccount />} />
                <Route element={<Guard rule={guestOnly} />}>
                  <Route path="login" element={<Login />} />
                  <Route path="register" element={<Register />} />
                  <Route path="forgot-password" element={<ForgotPassword />} />
                  <Route path="reset-password" element={<ResetPassword />} />
                  <Route path="verify-email" element={<VerifyEmail />} />
                  <Route path="accept-invitation" element={<AcceptInvitation />} />
                </Route>
                {/* The link of an e-mail change is followed signed in or not. */}
                <Route path="confirm-email" element={<ConfirmEmail />} />
              </Route>
              <Route path="logout" element={<Logout />} />
              <Route element={<Guard rule={loginRequired} />}>
                <Route element={<NarrowPage />}>
                  <Route path="profile" element={<Profile />} />
                  <Route path="entry/new" element={<EntryNew />} />
                  <Route path="entry/edit/:id" element={<EntryEdit />} />
                  <Route path="goals" element={<Goals />} />
                  <Route path="shoes" element={<Shoes />} />
                </Route>
                <Route path="dashboard" element={<Dashboard />} />
                <Route path="entries" element={<Entries />} />
                <Route path="entry/:id" element={<RunPage />} />
                <Route path="report/weekly" element={<WeeklyReport />} />
                <Route path="insights/records" element={<InsightsRecords />} />
                <Route path="insights/load" element={<InsightsLoad />} />
                <Route path="insights/year" element={<InsightsYear />} />
                <Route path="insights/map" element={<InsightsMap />} />
                <Route path="shoes/:id" element={<Shoe />} />
                <Route path="routes" element={<RoutesPage />} />
                <Route path="routes/:id" element={<RoutePage />} />
                <Route path="segments" element={<SegmentsPage />} />
                <Route path="segments/:id" element={<SegmentPage />} />
                <Route path="data" element={<YourData />} />
              </Route>
              {/* The admin panel's routes come with its chunk (routes/admin/admin-routes.tsx). */}
              <Route path="admin/*" element={<Admin />} />
              <Route element={<NarrowPage />}>
                <Route path="*" element={<NotFound />} />
              </Route>
            </Route>
          </Routes>
        </SessionGate>
      </Suspense>
    </>
  );
}
