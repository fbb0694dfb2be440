import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PersonalToken } from '../../../../core/tokens.js';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { ApiTokens } from './api-tokens';

const token = (overrides: Partial<PersonalToken> = {}): PersonalToken => ({
  id: 3,
  name: 'Garmin sync',
  scope: 'write',
  created_at: '2026-03-01T10:00:00.000Z',
  last_used_at: null,
  expires_at: null,
  ...overrides,
});

describe('ApiTokens', () => {
  it('lists the tokens with their access, last use and expiry', async () => {
    mockFetch({
      'GET /api/v1/tokens': {
        body: {
          tokens: [
            token(),
            token({
              id: 2,
              name: 'Backup',
              scope: 'read',
              last_used_at: '2026-03-02T10:00:00.000Z',
              expires_at: '2026-04-01T10:00:00.000Z',
            }),
          ],
        },
      },
    });
    renderWithApp(<ApiTokens />);
    const table = await screen.findByRole('table', { name: 'Your API tokens' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Garmin sync', 'Write', expect.stringMatching(/^03\/01\/2026 /), 'Never', 'Never', 'Revoke']);
    expect(within(rows[1]!).getByText('Read')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/^03\/02\/2026 /)).toBeInTheDocument();
  });

  it('creates a token, shows it once with a copy button, and refreshes the list', async () => {
    let listed: PersonalToken[] = [];
    const calls = mockFetch({
      'GET /api/v1/tokens': () => ({ body: { tokens: listed } }),
      'POST /api/v1/tokens': (request) => {
        listed = [token({ name: String(request.body?.name), scope: 'read', expires_at: '2026-04-17T10:00:00.000Z' })];
        return { status: 201, body: { token: listed[0], plain_text_token: 'rt_secret-value' } };
      },
    });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithApp(<ApiTokens />);
    expect(await screen.findByText('You have no API tokens.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByLabelText('Token name')).toHaveAccessibleDescription('The name field is required.');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Token name'), ' Watch ');
    await userEvent.selectOptions(screen.getByLabelText('Access'), 'read');
    await userEvent.selectOptions(screen.getByLabelText('Expires'), '30');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByLabelText('New token')).toHaveValue('rt_secret-value');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Watch',
      scope: 'read',
      expires_in_days: 30,
    });
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('rt_secret-value');
    expect(await screen.findByRole('cell', { name: 'Watch' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Done, hide it' }));
    expect(screen.queryByLabelText('New token')).not.toBeInTheDocument();
    expect(screen.queryByText(/rt_secret-value/)).not.toBeInTheDocument();
  });

  it('revokes a token after a confirmation, with POST _method DELETE', async () => {
    let listed = [token()];
    const calls = mockFetch({
      'GET /api/v1/tokens': () => ({ body: { tokens: listed } }),
      'POST /api/v1/tokens/3': () => {
        listed = [];
        return { body: { message: 'The token was revoked.' } };
      },
    });
    renderWithApp(<ApiTokens />);
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke the token Garmin sync' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: /revoke|ok|yes|delete/i }));
    await waitFor(() => expect(screen.getByText('You have no API tokens.')).toBeInTheDocument());
    expect(calls.find((call) => call.path === '/api/v1/tokens/3')?.body).toEqual({ _method: 'DELETE' });
  });
});
