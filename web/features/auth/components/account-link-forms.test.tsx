import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { makeAppConfig } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { ForgotPasswordForm, ResetPasswordForm } from './account-link-forms';
import { LoginForm } from './login-form';

const SENT = 'If an account uses this e-mail address, a link to reset its password is on its way.';

afterEach(() => {
  window.location.hash = '';
});

describe('the screens of mailed links', () => {
  it('the login form offers "Forgot your password?" only with mail on', async () => {
    mockFetch({ 'GET /api/v1/app-config': { body: makeAppConfig({ mail: true }) } });
    const { unmount } = renderWithApp(<LoginForm />);
    expect(await screen.findByRole('link', { name: 'Forgot your password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    unmount();
    mockFetch({ 'GET /api/v1/app-config': { body: makeAppConfig({ mail: false }) } });
    renderWithApp(<LoginForm />);
    await screen.findByLabelText('E-Mail Address');
    expect(screen.queryByRole('link', { name: 'Forgot your password?' })).toBeNull();
  });

  it('asks for a reset link and shows the server’s answer', async () => {
    const calls = mockFetch({ 'POST /api/v1/auth/forgot': { status: 202, body: { message: SENT } } });
    renderWithApp(<ForgotPasswordForm />);
    await userEvent.click(await screen.findByRole('button', { name: 'Send the link' }));
    expect(await screen.findByText('Enter your e-mail address.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('E-mail address'), '  rita@example.com ');
    await userEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByText(SENT, { selector: '.alert-success' })).toHaveAttribute('role', 'status');
    expect(calls.find((call) => call.path === '/api/v1/auth/forgot')?.body).toEqual({ email: 'rita@example.com' });
  });

  it('sends the token of the fragment with the new password; says so when the token is refused', async () => {
    window.location.hash = '#token=abc_123-XYZ';
    const calls = mockFetch({
      'POST /api/v1/auth/reset': {
        status: 422,
        body: {
          message: 'This link is invalid or has expired.',
          errors: { token: ['This link is invalid or has expired.'] },
        },
      },
    });
    renderWithApp(<ResetPasswordForm />);
    await userEvent.type(await screen.findByLabelText('New password'), 'new-password-1');
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'new-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Save the new password' }));
    expect(
      await screen.findByText(/This link is invalid or has expired\./, { selector: '.alert-danger' }),
    ).toHaveAttribute('role', 'alert');
    await waitFor(() =>
      expect(calls.find((call) => call.path === '/api/v1/auth/reset')?.body).toEqual({
        token: 'abc_123-XYZ',
        password: 'new-password-1',
        password_confirmation: 'new-password-1',
      }),
    );
  });

  it('without a token, says where the link is', async () => {
    renderWithApp(<ResetPasswordForm />);
    expect(
      await screen.findByText(/This page needs the link from your mail/, { selector: '.alert' }),
    ).toBeInTheDocument();
  });
});
