import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../core/schemas.js';
import { TOKEN_KEY } from '../lib/token-storage';
import { mockFetch } from '../test/fetch-mock';
import { makeAppConfig, makeUser, paged } from '../test/fixtures';
import { currentPath, renderRoutes } from '../test/render';

const screens = {
  'GET /api/v1/app-config': { body: makeAppConfig() },
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

/** The browser's Back button. */
function HistoryBack() {
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => void navigate(-1)}>
      History back
    </button>
  );
}

function signedInAs(role: Role) {
  window.localStorage.setItem(TOKEN_KEY, 'stored-token');
  return mockFetch({ ...screens, 'GET /api/v1/user/me': { body: makeUser({ role }) } });
}

/** Long enough for a screen's lazy chunk to be compiled the first time a test opens it. */
const chunkLoad = { timeout: 5000 };

/**
 * Opens the app at `start` and waits until it has settled on `expected`: the
 * location is there and its screen (every screen has one h1) has rendered.
 */
async function landsOn(start: string, expected: string) {
  cleanup();
  const view = renderRoutes(start);
  await waitFor(() => expect(currentPath()).toBe(expected), chunkLoad);
  expect(await screen.findByRole('heading', { level: 1 }, chunkLoad)).toBeInTheDocument();
  expect(currentPath()).toBe(expected);
  return view;
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
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' }, chunkLoad)).toBeInTheDocument();
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
    expect(await screen.findByRole('heading', { level: 1, name: 'Error 404' }, chunkLoad)).toBeInTheDocument();
    expect(screen.getByText('Page not found.')).toBeInTheDocument();
  });

  it('sends a user to /dashboard after logging in', async () => {
    const user = makeUser();
    mockFetch({
      ...screens,
      'POST /api/v1/auth/login': { body: { user, access_token: 'new-token', token_type: 'Bearer' } },
    });
    await landsOn('/login', '/login');
    await userEvent.type(await screen.findByLabelText('E-Mail Address'), 'rita@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, chunkLoad)).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard');
  });

  it('leaves the login page out of the history once signed in: Back goes to the page before it', async () => {
    const user = makeUser();
    mockFetch({
      ...screens,
      'POST /api/v1/auth/login': { body: { user, access_token: 'new-token', token_type: 'Bearer' } },
    });
    renderRoutes(['/policy', '/login'], undefined, <HistoryBack />);
    await userEvent.type(await screen.findByLabelText('E-Mail Address', undefined, chunkLoad), 'rita@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, chunkLoad)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'History back' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' }, chunkLoad)).toBeInTheDocument();
    expect(currentPath()).toBe('/policy');
  });

  it('cancels a refused navigation: the refused address is not left in the history', async () => {
    signedInAs('user');
    renderRoutes(['/policy', '/login'], undefined, <HistoryBack />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, chunkLoad)).toBeInTheDocument();
    expect(currentPath()).toBe('/dashboard');
    await userEvent.click(screen.getByRole('button', { name: 'History back' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' }, chunkLoad)).toBeInTheDocument();
    expect(currentPath()).toBe('/policy');
  });

  it('logs a user out on /logout (server and browser) and goes to the home page', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'stored-token');
    const calls = mockFetch({
      ...screens,
      'GET /api/v1/user/me': { body: makeUser() },
      'POST /api/v1/auth/logout': { body: { message: 'Successfully logged out.' } },
    });
    await landsOn('/logout', '/');
    expect(screen.getByRole('heading', { level: 1, name: 'Running Times' })).toBeInTheDocument();
    const logouts = calls.filter((call) => call.path === '/api/v1/auth/logout');
    expect(logouts).toHaveLength(1);
    expect(logouts[0]?.headers.authorization).toBe('Bearer stored-token');
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Main' })).toHaveTextContent('Login');
  });

  it('sends a user whose session expired to /login, with the server message', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'stored-token');
    mockFetch({
      ...screens,
      'GET /api/v1/user/me': { body: makeUser() },
      'GET /api/v1/entry': { status: 401, body: { message: 'Unauthenticated.' } },
    });
    renderRoutes('/entries');
    expect(await screen.findByRole('heading', { level: 1, name: 'Login' }, chunkLoad)).toBeInTheDocument();
    expect(currentPath()).toBe('/login');
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect((await screen.findAllByRole('alert'))[0]).toHaveTextContent('Unauthenticated.');
  });
});
