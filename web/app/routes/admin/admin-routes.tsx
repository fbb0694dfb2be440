import { lazy, type ComponentType } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { can } from '../../../../core/permissions.js';
import { Guard, type GuardRule } from '../../guards';
import { NarrowPage } from '../../layout/root-layout';
import { Component as NotFound } from '../not-found';

/** An admin screen (its `Component` export) as a lazy chunk. */
const screen = (load: () => Promise<{ Component: ComponentType }>) =>
  lazy(() => load().then((module) => ({ default: module.Component })));

const AdminLayout = screen(() => import('./admin-layout'));
const AdminDashboard = screen(() => import('./dashboard'));
const AdminUsers = screen(() => import('./users'));
const AdminUserShow = screen(() => import('./user-show'));
const AdminUserEdit = screen(() => import('./user-edit'));
const AdminEntries = screen(() => import('./entries'));
const AdminUserEntries = screen(() => import('./user-entries'));
const AdminEntryEdit = screen(() => import('./entry-edit'));
const AdminRunPage = screen(() => import('./entry'));

/** The admin panel: admins and managers. */
export const staffOnly: GuardRule = (user) => (can(user, { type: 'admin.panel' }) ? null : '/login');

/** Everyone's entries: admins only; a manager is sent back to the admin dashboard. */
export const adminOnly: GuardRule = (user) => {
  if (can(user, { type: 'entry.listAll' })) return null;
  return can(user, { type: 'admin.panel' }) ? '/admin/dashboard' : '/login';
};

/**
 * The admin panel's screens under `/admin/` (SPEC §2), a chunk of their own: their routes are not
 * part of every visitor's first load (decision 012's budget of `/login`). Guards are layout routes.
 */
export function Component() {
  return (
    <Routes>
      <Route element={<Guard rule={staffOnly} />}>
        <Route index element={<Navigate to="/admin/dashboard" replace />} />
        <Route element={<AdminLayout />}>
          <Route path="dashboard" element={<AdminDashboard />} />
          <Route path="users" element={<AdminUsers />} />
          <Route path="user/show/:id" element={<AdminUserShow />} />
          <Route element={<NarrowPage />}>
            <Route path="user/edit/:id" element={<AdminUserEdit />} />
          </Route>
        </Route>
        {/* Checked before the admin panel's layout renders, so a manager never sees it empty. */}
        <Route element={<Guard rule={adminOnly} />}>
          <Route element={<AdminLayout />}>
            <Route path="entries" element={<AdminEntries />} />
            <Route path="user/:id/entries" element={<AdminUserEntries />} />
            <Route element={<NarrowPage />}>
              <Route path="entry/edit/:id" element={<AdminEntryEdit />} />
            </Route>
            <Route path="entry/:id" element={<AdminRunPage />} />
          </Route>
        </Route>
      </Route>
      {/* An unknown address under /admin/ is the 404 page, for anyone, as everywhere else. */}
      <Route element={<NarrowPage />}>
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
