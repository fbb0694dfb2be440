/**
 * Route guards (SPEC §2), run as loaders before a route renders. Each first
 * awaits the session check, which runs once (GET /user/me) and is cached.
 */
import type { QueryClient } from '@tanstack/react-query';
import { redirect } from 'react-router';
import { can } from '../../core/permissions.js';
import { ensureSession } from '../features/auth/api/get-me';
import { logout } from '../features/auth/api/logout';

export function createGuards(queryClient: QueryClient) {
  return {
    /** Every route: make sure the session was checked before the first screen. */
    async session() {
      await ensureSession(queryClient);
      return null;
    },
    /** Login and registration: a logged-in user has nothing to do there. */
    async guestOnly() {
      return (await ensureSession(queryClient)) ? redirect('/dashboard') : null;
    },
    async loginRequired() {
      return (await ensureSession(queryClient)) ? null : redirect('/login');
    },
    /** The admin panel: admins and managers. */
    async staffOnly() {
      return can(await ensureSession(queryClient), { type: 'admin.panel' }) ? null : redirect('/login');
    },
    /** Everyone's entries: admins only; a manager is sent back to the admin dashboard. */
    async adminOnly() {
      const user = await ensureSession(queryClient);
      if (can(user, { type: 'entry.listAll' })) return null;
      return redirect(can(user, { type: 'admin.panel' }) ? '/admin/dashboard' : '/login');
    },
    async logout() {
      if (!(await ensureSession(queryClient))) return redirect('/login');
      await logout(queryClient);
      return redirect('/');
    },
  };
}
