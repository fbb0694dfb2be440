import { screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../../lib/token-storage';
import { mockFetch } from '../../test/fetch-mock';
import { makeUser } from '../../test/fixtures';
import { renderWithApp } from '../../test/render';
import OidcSignIn from './oidc-sign-in';

function open(fragment: string) {
  history.replaceState(null, '', `/login${fragment}`);
  const props = { name: 'Pocket ID', onPassword: undefined, onChallenge: vi.fn() };
  renderWithApp(<OidcSignIn {...props} />);
  return props;
}

afterEach(() => {
  sessionStorage.clear();
  history.replaceState(null, '', '/');
});

describe('OidcSignIn', () => {
  it('offers the provider’s button', async () => {
    open('');
    const button = await screen.findByRole('link', { name: 'Sign in with Pocket ID' });
    expect(button).toHaveAttribute('href', '/api/v1/auth/oidc/start');
  });

  it('exchanges the code a provider sent back, once, and signs the runner in', async () => {
    const user = makeUser();
    const calls = mockFetch({
      'POST /api/v1/auth/oidc/exchange': { body: { user, access_token: 'token-sso', token_type: 'Bearer' } },
    });
    open('#oidc=the-code');
    await waitFor(() => expect(window.localStorage.getItem(TOKEN_KEY)).toBe('token-sso'));
    expect(location.hash).toBe('');
    expect(calls.filter((call) => call.path === '/api/v1/auth/oidc/exchange').map((call) => call.body)).toEqual([
      { code: 'the-code' },
    ]);
    expect(window.localStorage.getItem(TOKEN_KEY)).toBe('token-sso');
  });

  it('still exchanges the code when its first render was thrown away (a sibling suspended)', async () => {
    const user = makeUser();
    const calls = mockFetch({
      'POST /api/v1/auth/oidc/exchange': { body: { user, access_token: 'token-sso', token_type: 'Bearer' } },
    });
    let release = () => {};
    let ready = false;
    const wait = new Promise<void>((resolve) => {
      release = () => {
        ready = true;
        resolve();
      };
    });
    function Sibling() {
      if (!ready) throw wait;
      return null;
    }
    history.replaceState(null, '', '/login#oidc=the-code');
    renderWithApp(
      <Suspense>
        <OidcSignIn name="Pocket ID" onPassword={undefined} onChallenge={vi.fn()} />
        <Sibling />
      </Suspense>,
    );
    await waitFor(() => expect(location.hash).toBe(''));
    release();
    await waitFor(() => expect(window.localStorage.getItem(TOKEN_KEY)).toBe('token-sso'));
    expect(calls.filter((call) => call.path === '/api/v1/auth/oidc/exchange').map((call) => call.body)).toEqual([
      { code: 'the-code' },
    ]);
  });

  it('hands a two-factor challenge to the code step', async () => {
    mockFetch({ 'POST /api/v1/auth/oidc/exchange': { body: { two_factor_required: true, challenge: 'ch-1' } } });
    const props = open('#oidc=the-code');
    await waitFor(() => expect(props.onChallenge).toHaveBeenCalledWith('ch-1'));
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('shows why a sign-in was refused, and keeps a waiting link for the password login', async () => {
    open('#oidc_error=link&oidc_link=link-code');
    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this e-mail address already exists.');
    expect(sessionStorage.getItem('oidc_link')).toBe('link-code');
    expect(location.hash).toBe('');
  });

  it('shows the server’s message when the code is spent', async () => {
    mockFetch({
      'POST /api/v1/auth/oidc/exchange': {
        status: 422,
        body: { message: 'This sign-in code is not valid or has expired: sign in again.', errors: { code: ['x'] } },
      },
    });
    open('#oidc=old-code');
    expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in code is not valid or has expired');
  });
});
