import { cleanup, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../core/schemas.js';
import { TOKEN_KEY } from '../lib/token-storage';
import { mockFetch } from '../test/fetch-mock';
import { makeUser, paged } from '../test/fixtures';
import { renderRoutes } from '../test/render';

const screens = {
  'GET /api/v1/app-config': { body: { demo_mode: false, demo_login: null } },
  'GET /api/v1/dashboard/data': {
    body: {
      weekly_count: 0,
      weekly_avg_speed: null,
      weekly_avg_pace: null,
      max_speed: null,
      max_distance: null,
      max_time: null,
      week_chart: [],
    },
  },
  'GET /api/v1/dashboard/admin-data': {
    body: {
      total_users: 1,
      new_users_this_week: 1,
      new_users_this_month: 1,
      total_entries: 0,
      avg_entries_per_user: 0,
      fastest_run: null,
      longest_run: null,
    },
  },
  'GET /api/v1/entry/all': { body: { entries: paged([]) } },
};

function signedInAs(role: Role) {
  window.localStorage.setItem(TOKEN_KEY, 'stored-token');
  return mockFetch({ ...screens, 'GET /api/v1/user/me': { body: makeUser({ role }) } });
}

async function landsOn(start: string, expected: string) {
  cleanup();
  const { router } = renderRoutes(start);
  await waitFor(() => expect(router.state.location.pathname).toBe(expected));
  await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
  expect(router.state.location.pathname).toBe(expected);
  return router;
}

describe('route guards', () => {
  it('sends a visitor from login-required and admin routes to /login', async () => {
    mockFetch(screens);
    await landsOn('/dashboard', '/login');
    await landsOn('/entries', '/login');
    await landsOn('/admin/users', '/login');
    await landsOn('/admin/entries', '/login');
    await landsOn('/logout', '/login');
  });

  it('lets a visitor open public and guest-only pages', async () => {
    mockFetch(screens);
    await landsOn('/register', '/register');
    await landsOn('/policy', '/policy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' })).toBeInTheDocument();
  });

  it('checks the stored session once with the bearer token before the first screen', async () => {
    const calls = signedInAs('user');
    await landsOn('/dashboard', '/dashboard');
    const checks = calls.filter((call) => call.path === '/api/v1/user/me');
    expect(checks).toHaveLength(1);
    expect(checks[0]?.headers.authorization).toBe('Bearer stored-token');
  });

  it('moves a logged-in user away from login and registration', async () => {
    signedInAs('user');
    await landsOn('/login', '/dashboard');
  });

  it('keeps a plain user out of the admin panel (sent to /login, which a logged-in user leaves for /dashboard)', async () => {
    signedInAs('user');
    await landsOn('/admin/dashboard', '/dashboard');
    await landsOn('/admin/entries', '/dashboard');
    expect(screen.queryByRole('link', { name: 'Admin Panel' })).not.toBeInTheDocument();
  });

  it('lets a manager into the admin panel but not into everyone\u2019s entries', async () => {
    signedInAs('manager');
    await landsOn('/admin', '/admin/dashboard');
    await landsOn('/admin/users', '/admin/users');
    await landsOn('/admin/entries', '/admin/dashboard');
    await landsOn('/admin/entry/edit/3', '/admin/dashboard');
    const adminMenu = await screen.findByRole('navigation', { name: 'Admin panel' });
    expect(adminMenu).toHaveTextContent('Users');
    expect(adminMenu).not.toHaveTextContent('Entries');
  });

  it('lets an admin open everyone\u2019s entries, with the Entries menu item', async () => {
    signedInAs('admin');
    await landsOn('/admin/entries', '/admin/entries');
    const adminMenu = await screen.findByRole('navigation', { name: 'Admin panel' });
    expect(adminMenu).toHaveTextContent('Entries');
  });

  it('clears a rejected token silently and treats the visitor as a guest', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'expired');
    mockFetch({ ...screens, 'GET /api/v1/user/me': { status: 401, body: { message: 'Unauthenticated.' } } });
    await landsOn('/dashboard', '/login');
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(screen.queryByText('Unauthenticated.')).not.toBeInTheDocument();
  });

  it('shows the 404 page for unknown paths', async () => {
    mockFetch(screens);
    await landsOn('/no/such/page', '/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Error 404' })).toBeInTheDocument();
    expect(screen.getByText('Page not found.')).toBeInTheDocument();
  });
});
