import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY, tokenStorage } from '../../lib/token-storage';
import { mockFetch } from '../../test/fetch-mock';
import { makeAppConfig, makeUser } from '../../test/fixtures';
import { currentPath, renderRoutes } from '../../test/render';

const chunkLoad = { timeout: 5000 };

describe('the account deletion page', () => {
  it('outside demo mode explains how to delete one\u2019s account, with no word of a daily clean-up', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'token');
    mockFetch({ 'GET /api/v1/user/me': { body: makeUser() }, 'GET /api/v1/app-config': { body: makeAppConfig() } });
    renderRoutes('/delete-account');
    const main = await screen.findByRole('main');
    expect(
      await within(main).findByText(/You can delete your account yourself at any time/, {}, chunkLoad),
    ).toBeInTheDocument();
    expect(within(main).getByRole('link', { name: 'Delete my account' })).toHaveAttribute(
      'href',
      '/profile#delete-account',
    );
    expect(main).not.toHaveTextContent(/4am|04:00/);
  });

  it('tells a visitor to log in first', async () => {
    mockFetch({ 'GET /api/v1/app-config': { body: makeAppConfig() } });
    renderRoutes('/delete-account');
    expect(await screen.findByText(/Log in and open your profile/, {}, chunkLoad)).toBeInTheDocument();
  });

  it('in demo mode says every account goes at 4am UTC', async () => {
    mockFetch({
      'GET /api/v1/app-config': {
        body: makeAppConfig({ demo_mode: true, demo_login: { email: 'demo@example.com', password: 'x' } }),
      },
    });
    renderRoutes('/delete-account');
    expect(await screen.findByText(/deleted automatically every day at 4am UTC/, {}, chunkLoad)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Delete my account' })).not.toBeInTheDocument();
  });
});

describe('Delete my account, on the profile', () => {
  it('is confirmed by typing one\u2019s e-mail address, deletes the account and ends the session', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'token');
    const me = makeUser({ id: 7, email: 'rita@example.com' });
    const calls = mockFetch({
      'GET /api/v1/user/me': { body: me },
      'GET /api/v1/app-config': { body: makeAppConfig() },
      'GET /api/v1/tokens': { body: { tokens: [] } },
      'POST /api/v1/user/7': { body: { message: 'User was deleted.' } },
    });
    renderRoutes('/profile');
    const section = await screen.findByRole('region', { name: 'Delete my account' }, chunkLoad);
    const button = within(section).getByRole('button', { name: 'Delete my account' });
    expect(button).toBeDisabled();
    await userEvent.type(within(section).getByLabelText('To confirm, type your e-mail'), 'rita@example.co');
    expect(button).toBeDisabled();
    await userEvent.type(within(section).getByLabelText('To confirm, type your e-mail'), 'm');
    expect(button).toBeEnabled();
    await userEvent.click(button);
    await waitFor(() => expect(currentPath()).toBe('/'));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ _method: 'DELETE' });
    expect(tokenStorage.get()).toBeNull();
    expect(await screen.findByText('Your account was deleted.')).toBeInTheDocument();
  });
});

describe('the Source link', () => {
  it('points at the configured repository', async () => {
    mockFetch({ 'GET /api/v1/app-config': { body: makeAppConfig({ source_url: 'https://github.com/owner/rt' }) } });
    renderRoutes('/policy');
    expect(await screen.findByRole('link', { name: 'Source on GitHub' }, chunkLoad)).toHaveAttribute(
      'href',
      'https://github.com/owner/rt',
    );
  });

  it("is hidden when no repository is configured, never github.com's front page", async () => {
    mockFetch({ 'GET /api/v1/app-config': { body: makeAppConfig() } });
    renderRoutes('/policy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' }, chunkLoad)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: /^Source/ })).not.toBeInTheDocument());
    expect(document.querySelector('a[href^="https://github.com"]')).toBeNull();
  });
});
