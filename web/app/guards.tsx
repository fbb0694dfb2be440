/**
 * Route guards (SPEC §2). The session is checked once (GET /user/me, cached)
 * before any route renders (`SessionGate`); the guards are layout routes that
 * then read the cached user and either show their routes or send the visitor on,
 * replacing the refused address in the history (the navigation is cancelled).
 */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';
import type { User } from '../../core/schemas.js';
import { meQueryOptions, useUser } from '../features/auth/api/get-me';

/** Where a user (null for a visitor) is sent instead of the guarded routes; null lets them in. */
export type GuardRule = (user: User | null) => string | null;

/**
 * Login and registration: a logged-in user has nothing to do there. This is also how a sign-in moves
 * on: the session starts, and this guard alone takes the runner to the dashboard (a second navigation
 * from the page would race it, and leave /login in the history).
 */
export const guestOnly: GuardRule = (user) => (user ? '/dashboard' : null);

export const loginRequired: GuardRule = (user) => (user ? null : '/login');

// The admin panel's rules are in routes/admin/admin-routes.tsx, with its routes.

/** A layout route that shows its child routes only to the users `rule` lets in. */
export function Guard({ rule }: { rule: GuardRule }) {
  const target = rule(useUser());
  return target === null ? <Outlet /> : <Navigate to={target} replace />;
}

/** Renders nothing until the stored session has been checked, then `children`. */
export function SessionGate({ children }: { children: ReactNode }) {
  return useQuery(meQueryOptions()).isPending ? null : children;
}
