import type { QueryClient } from '@tanstack/react-query';
import { redirect, type RouteObject } from 'react-router';
import { createGuards } from './guards';
import { RootLayout, RootErrorBoundary, RootHydrateFallback } from './layout/root-layout';

/** Every screen of SPEC §2. Screens are lazy chunks; guards are loaders. */
export function createRoutes(queryClient: QueryClient): RouteObject[] {
  const guard = createGuards(queryClient);
  return [
    {
      id: 'root',
      path: '/',
      loader: guard.session,
      Component: RootLayout,
      ErrorBoundary: RootErrorBoundary,
      HydrateFallback: RootHydrateFallback,
      children: [
        { index: true, lazy: () => import('./routes/home') },
        { path: 'policy', lazy: () => import('./routes/policy') },
        { path: 'delete-account', lazy: () => import('./routes/delete-account') },
        {
          loader: guard.guestOnly,
          children: [
            { path: 'login', lazy: () => import('./routes/login') },
            { path: 'register', lazy: () => import('./routes/register') },
          ],
        },
        { path: 'logout', loader: guard.logout },
        {
          loader: guard.loginRequired,
          children: [
            { path: 'profile', lazy: () => import('./routes/profile') },
            { path: 'dashboard', lazy: () => import('./routes/dashboard') },
            { path: 'entries', lazy: () => import('./routes/entries') },
            { path: 'entry/new', lazy: () => import('./routes/entry-new') },
            { path: 'entry/edit/:id', lazy: () => import('./routes/entry-edit') },
            { path: 'report/weekly', lazy: () => import('./routes/weekly-report') },
          ],
        },
        {
          path: 'admin',
          loader: guard.staffOnly,
          lazy: () => import('./routes/admin/admin-layout'),
          children: [
            { index: true, loader: () => redirect('/admin/dashboard') },
            { path: 'dashboard', lazy: () => import('./routes/admin/dashboard') },
            { path: 'users', lazy: () => import('./routes/admin/users') },
            { path: 'user/show/:id', lazy: () => import('./routes/admin/user-show') },
            { path: 'user/edit/:id', lazy: () => import('./routes/admin/user-edit') },
            {
              loader: guard.adminOnly,
              children: [
                { path: 'entries', lazy: () => import('./routes/admin/entries') },
                { path: 'entry/edit/:id', lazy: () => import('./routes/admin/entry-edit') },
              ],
            },
          ],
        },
        { path: '*', lazy: () => import('./routes/not-found') },
      ],
    },
  ];
}
