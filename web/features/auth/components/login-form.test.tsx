import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../../../lib/token-storage';
import { mockFetch } from '../../../test/fetch-mock';
import { makeAppConfig, makeUser } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { LoginForm } from './login-form';

const noDemo = { 'GET /api/v1/app-config': { body: makeAppConfig() } };

describe('LoginForm', () => {
  it('sends trimmed credentials, stores the token and says so', async () => {
    const user = makeUser();
    const calls = mockFetch({
      ...noDemo,
      'POST /api/v1/auth/login': { body: { user, access_token: 'token-123', token_type: 'Bearer' } },
    });
    renderWithApp(<LoginForm />);

    await userEvent.type(await screen.findByLabelText('E-Mail Address'), '  rita@example.com  ');
    await userEvent.type(screen.getByLabelText('Password'), ' secret-password ');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));

    await waitFor(() => expect(window.localStorage.getItem(TOKEN_KEY)).toBe('token-123'));
    const login = calls.find((call) => call.path === '/api/v1/auth/login');
    expect(login?.body).toEqual({ email: 'rita@example.com', password: 'secret-password' });
    expect(login?.headers.accept).toBe('application/json');
    expect(window.localStorage.getItem(TOKEN_KEY)).toBe('token-123');
    expect(await screen.findByText('You logged in!')).toBeInTheDocument();
  });

  it('hands the challenge of a two-factor login to the code step, without a token or a session', async () => {
    mockFetch({
      ...noDemo,
      'POST /api/v1/auth/login': { body: { two_factor_required: true, challenge: 'challenge-abc' } },
    });
    const onChallenge = vi.fn();
    renderWithApp(<LoginForm onChallenge={onChallenge} />);

    await userEvent.type(await screen.findByLabelText('E-Mail Address'), 'rita@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));

    await waitFor(() => expect(onChallenge).toHaveBeenCalledWith('challenge-abc'));
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('shows the server message in a red banner and the field errors under their fields', async () => {
    mockFetch({
      ...noDemo,
      'POST /api/v1/auth/login': {
        status: 422,
        body: {
          message: 'The email must be a valid email address.',
          errors: { email: ['The email must be a valid email address.'], password: ['The password is too short.'] },
        },
      },
    });
    renderWithApp(<LoginForm />);

    await userEvent.type(await screen.findByLabelText('E-Mail Address'), 'not-an-email');
    await userEvent.type(screen.getByLabelText('Password'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));

    const banner = await screen.findByText('The email must be a valid email address.', { selector: '.alert-danger' });
    expect(banner).toHaveAttribute('role', 'alert');
    const email = screen.getByLabelText('E-Mail Address');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('The email must be a valid email address.');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('The password is too short.');
  });

  it('shows a 401 message in the banner', async () => {
    mockFetch({
      ...noDemo,
      'POST /api/v1/auth/login': { status: 401, body: { message: 'These credentials do not match our records.' } },
    });
    renderWithApp(<LoginForm />);
    await userEvent.type(await screen.findByLabelText('E-Mail Address'), 'rita@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(
      await screen.findByText('These credentials do not match our records.', { selector: '.alert-danger' }),
    ).toBeInTheDocument();
  });

  it('requires both fields before calling the server (whitespace counts as empty)', async () => {
    const calls = mockFetch(noDemo);
    renderWithApp(<LoginForm />);
    await userEvent.type(await screen.findByLabelText('Password'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));

    expect(screen.getByLabelText('E-Mail Address')).toHaveAccessibleDescription('The email field is required.');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('The password field is required.');
    expect(calls.some((call) => call.path === '/api/v1/auth/login')).toBe(false);
  });

  it('prefills the demo account in demo mode', async () => {
    mockFetch({
      'GET /api/v1/app-config': {
        body: makeAppConfig({
          demo_mode: true,
          demo_login: { email: 'demo-admin@example.com', password: 'demo-password' },
        }),
      },
    });
    renderWithApp(<LoginForm />);
    expect(await screen.findByLabelText('E-Mail Address')).toHaveValue('demo-admin@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('demo-password');
  });
});
