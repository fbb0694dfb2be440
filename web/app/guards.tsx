/**
 * Route guards (SPEC §2). The session is checked once (GET /user/me, cached)
 * before any route renders (`SessionGate`); the guards are layout routes that
 * then read the cached user and either show their routes or send the visitor on,
 * replacing the refused address in the history (the navigation is cancelled).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Navigate, Outlet, useNavigate } from 'react-router';
import type { User } from '../../core/schemas.js';
import { can } from '../../core/permissions.js';
import { meQueryOptions, useUser } from '../features/auth/api/get-me';
import { logout } from '../features/auth/api/logout';

/** Where a user (null for a visitor) is sent instead of the guarded routes; null lets them in. */
export type GuardRule = (user: User | null) => string | null;

/** Login and registration: a logged-in user has nothing to do there. */
export const guestOnly: GuardRule = (user) => (user ? '/dashboard' : null);

export const loginRequired: GuardRule = (user) => (user ? null : '/login');

/** The admin panel: admins and managers. */
export const staffOnly: GuardRule = (user) => (can(user, { type: 'admin.panel' }) ? null : '/login');

/** Everyone's entries: admins only; a manager is sent back to the admin dashboard. */
export const adminOnly: GuardRule = (user) => {
  if (can(user, { type: 'entry.listAll' })) return null;
  return can(user, { type: 'admin.panel' }) ? '/admin/dashboard' : '/login';
};

/** A layout route that shows its child routes only to the users `rule` lets in. */
export function Guard({ rule }: { rule: GuardRule }) {
  const target = rule(useUser());
  return target === null ? <Outlet /> : <Navigate to={target} replace />;
}

/** Renders nothing until the stored session has been checked, then `children`. */
export function SessionGate({ children }: { children: ReactNode }) {
  return useQuery(meQueryOptions()).isPending ? null : children;
}

// Loaded when a logout finds runs still waiting in the browser: the warning about them.
const LogoutWarning = lazy(() => import('../features/entries/components/logout-check'));

/**
 * /logout: warns when runs added offline still wait (LogoutWarning), forgets them and every cached
 * answer, ends the session (server and browser), then goes to /; a visitor is sent to /login.
 */
export function Logout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const user = useUser();
  // Who was signed in when the route opened: ending the session must not turn this into a visit to /login.
  const [userId] = useState(user?.id ?? null);
  const [waiting, setWaiting] = useState(0);
  const started = useRef(false);
  const leave = useCallback(async () => {
    setWaiting(0);
    const { forgetOfflineData } = await import('../features/entries/offline-queue');
    await forgetOfflineData();
    await logout(queryClient);
    await navigate('/', { replace: true });
  }, [queryClient, navigate]);
  useEffect(() => {
    if (userId === null || started.current) return;
    started.current = true;
    void (async () => {
      // The queue's module (small, no React) loads with the logout, not with the app.
      const { offlineQueue } = await import('../features/entries/offline-queue');
      const count = (await offlineQueue.list(userId).catch(() => [])).length;
      if (count > 0) setWaiting(count);
      else await leave();
    })();
  }, [userId, leave]);
  if (userId === null) return <Navigate to="/login" replace />;
  if (waiting === 0) return null;
  return (
    <Suspense fallback={null}>
      <LogoutWarning
        count={waiting}
        onLeave={() => void leave()}
        onStay={() => void navigate('/dashboard', { replace: true })}
      />
    </Suspense>
  );
}
