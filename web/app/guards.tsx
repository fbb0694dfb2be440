/**
 * Route guards (SPEC §2). The session is checked once (GET /user/me, cached)
 * before any route renders (`SessionGate`); the guards are layout routes that
 * then read the cached user and either show their routes or send the visitor on,
 * replacing the refused address in the history (the navigation is cancelled).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
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

/** /logout: ends the session (server and browser), then goes to /; a visitor is sent to /login. */
export function Logout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const user = useUser();
  // Whether there was a session when the route opened: ending it must not turn this into a visit to /login.
  const [signedIn] = useState(user !== null);
  const started = useRef(false);
  useEffect(() => {
    if (!signedIn || started.current) return;
    started.current = true;
    void logout(queryClient).then(() => navigate('/', { replace: true }));
  }, [signedIn, queryClient, navigate]);
  return signedIn ? null : <Navigate to="/login" replace />;
}
