import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../../lib/token-storage';
import { mockFetch } from '../../../test/fetch-mock';
import { makeUser } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { RegisterForm } from './register-form';

async function fillIn(values: { name: string; email: string; password: string; confirm: string }) {
  await userEvent.type(screen.getByLabelText('Name'), values.name);
  await userEvent.type(screen.getByLabelText('E-Mail Address'), values.email);
  await userEvent.type(screen.getByLabelText('Password'), values.password);
  await userEvent.type(screen.getByLabelText('Confirm Password'), values.confirm);
  await userEvent.click(screen.getByRole('button', { name: 'Register' }));
}

describe('RegisterForm', () => {
  it('shows each server error under its own field', async () => {
    mockFetch({
      'POST /api/v1/auth/register': {
        status: 422,
        body: {
          message: 'The email has already been taken.',
          errors: {
            email: ['The email has already been taken.'],
            password: ['The password must be at least 8 characters.'],
          },
        },
      },
    });
    renderWithApp(<RegisterForm />);
    await fillIn({ name: 'Rita', email: 'rita@example.com', password: 'short', confirm: 'short' });

    await waitFor(() =>
      expect(screen.getByLabelText('E-Mail Address')).toHaveAccessibleDescription('The email has already been taken.'),
    );
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      expect.stringContaining('The password must be at least 8 characters.'),
    );
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('checks required fields and the confirmation before sending', async () => {
    const calls = mockFetch({});
    renderWithApp(<RegisterForm />);
    await userEvent.type(screen.getByLabelText('Password'), 'long-enough-1');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'long-enough-2');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('The name field is required.');
    expect(screen.getByLabelText('E-Mail Address')).toHaveAccessibleDescription('The email field is required.');
    expect(screen.getByLabelText('Confirm Password')).toHaveAccessibleDescription(
      'The password confirmation does not match.',
    );
    expect(screen.getByLabelText('Confirm Password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid');
    expect(calls).toHaveLength(0);
  });

  it("shows the server's mismatch, which it names on the password, under Confirm Password", async () => {
    mockFetch({
      'POST /api/v1/auth/register': {
        status: 422,
        body: {
          message: 'The password confirmation does not match.',
          errors: { password: ['The password confirmation does not match.'] },
        },
      },
    });
    renderWithApp(<RegisterForm />);
    // Equal here, so that only the server finds them different (e.g. a field changed by a password manager).
    await fillIn({ name: 'Rita', email: 'rita@example.com', password: 'password-123', confirm: 'password-123' });
    await waitFor(() =>
      expect(screen.getByLabelText('Confirm Password')).toHaveAccessibleDescription(
        'The password confirmation does not match.',
      ),
    );
    expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid');
  });

  it('turns the length hint red, counting, while the password is too short', async () => {
    mockFetch({});
    renderWithApp(<RegisterForm />);
    const hint = () => screen.getByText(/^At least 8 characters/);
    expect(hint()).toHaveTextContent('At least 8 characters.');
    expect(hint()).not.toHaveClass('text-danger-emphasis');
    await userEvent.type(screen.getByLabelText('Password'), 'short');
    expect(hint()).toHaveTextContent('At least 8 characters (5 so far).');
    expect(hint()).toHaveClass('text-danger-emphasis');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('At least 8 characters (5 so far).');
    await userEvent.type(screen.getByLabelText('Password'), '-enough');
    expect(hint()).toHaveTextContent('At least 8 characters.');
    expect(hint()).not.toHaveClass('text-danger-emphasis');
  });

  it('registers with the browser time zone', async () => {
    const calls = mockFetch({
      'POST /api/v1/auth/register': {
        status: 201,
        body: { user: makeUser(), access_token: 'new-token', token_type: 'Bearer' },
      },
    });
    renderWithApp(<RegisterForm />);
    await fillIn({ name: ' Rita ', email: 'rita@example.com', password: 'password-123', confirm: 'password-123' });

    await waitFor(() => expect(window.localStorage.getItem(TOKEN_KEY)).toBe('new-token'));
    expect(calls[0]?.body).toEqual({
      name: 'Rita',
      email: 'rita@example.com',
      password: 'password-123',
      password_confirmation: 'password-123',
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });
});
