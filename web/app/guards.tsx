/**
 * Route guards (SPEC §2). The session is checked once (GET /user/me, cached)
 * before any route renders (`SessionGate`); the guards are layout routes that
 * then read the cached user and either show their routes or send the visitor on,
 * replacing the refused address in the history (the navigation is cancelled).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
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

// Loaded when a logout starts: the runs waiting in the browser, and the warning about them.
const LogoutCheck = lazy(() => import('../features/entries/components/logout-check'));

/**
 * /logout: warns when runs added offline still wait (LogoutCheck), forgets them and every cached
 * answer, ends the session (server and browser), then goes to /; a visitor is sent to /login.
 */
export function Logout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const user = useUser();
  // Who was signed in when the route opened: ending the session must not turn this into a visit to /login.
  const [userId] = useState(user?.id ?? null);
  const [checked, setChecked] = useState(false);
  const started = useRef(false);
  useEffect(() => {
    if (userId === null || !checked || started.current) return;
    started.current = true;
    void logout(queryClient).then(() => navigate('/', { replace: true }));
  }, [userId, checked, queryClient, navigate]);
  if (userId === null) return <Navigate to="/login" replace />;
  if (checked) return null;
  return (
    <Suspense fallback={null}>
      <LogoutCheck
        userId={userId}
        onLeave={() => setChecked(true)}
        onStay={() => void navigate('/dashboard', { replace: true })}
      />
    </Suspense>
  );
}
