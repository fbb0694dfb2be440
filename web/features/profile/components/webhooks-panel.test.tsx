import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Webhook } from '../../../../core/webhooks.js';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { WebhooksPanel } from './webhooks-panel';

const webhook = (overrides: Partial<Webhook> = {}): Webhook => ({
  id: 4,
  url: 'https://hooks.example.org/runs',
  events: ['run.created', 'run.updated', 'run.deleted'],
  created_at: '2026-03-01T10:00:00.000Z',
  last_delivery: null,
  ...overrides,
});

describe('WebhooksPanel', () => {
  it('lists the webhooks with their events and how their last delivery went', async () => {
    mockFetch({
      'GET /api/v1/webhooks': {
        body: {
          webhooks: [
            webhook(),
            webhook({
              id: 5,
              url: 'http://homeassistant.local:8123/api/webhook/x',
              events: ['run.created'],
              last_delivery: { at: '2026-03-02T10:00:00.000Z', status: null, error: 'Address not allowed.' },
            }),
            webhook({ id: 6, last_delivery: { at: '2026-03-03T10:00:00.000Z', status: 204, error: null } }),
          ],
        },
      },
    });
    renderWithApp(<WebhooksPanel />);
    const table = await screen.findByRole('table', { name: 'Your webhooks' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      'https://hooks.example.org/runs',
      'A run is added, A run is changed, A run is deleted',
      'None yet',
      'Delete',
    ]);
    expect(within(rows[1]!).getByText(/^03\/02\/2026 .* · Failed: address not allowed$/)).toBeInTheDocument();
    expect(within(rows[2]!).getByText(/· Delivered \(204\)$/)).toBeInTheDocument();
  });

  it('adds a webhook with the chosen events and shows its secret once, with a copy button', async () => {
    let listed: Webhook[] = [];
    const calls = mockFetch({
      'GET /api/v1/webhooks': () => ({ body: { webhooks: listed } }),
      'POST /api/v1/webhooks': (request) => {
        listed = [webhook({ url: String(request.body?.url), events: ['run.created', 'run.deleted'] })];
        return { status: 201, body: { webhook: listed[0], secret: 'ab'.repeat(32) } };
      },
    });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithApp(<WebhooksPanel />);
    expect(await screen.findByText('You have no webhooks yet.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect(screen.getByLabelText('Address (URL)')).toHaveAccessibleDescription(
      expect.stringContaining('Enter the address to send to.'),
    );
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Address (URL)'), ' https://hooks.example.org/new ');
    await userEvent.click(screen.getByRole('checkbox', { name: 'A run is changed' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add webhook' }));

    expect(await screen.findByLabelText('Webhook secret')).toHaveValue('ab'.repeat(32));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      url: 'https://hooks.example.org/new',
      events: ['run.created', 'run.deleted'],
    });
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('ab'.repeat(32));
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByLabelText('Webhook secret')).not.toBeInTheDocument();
    expect(await screen.findByRole('cell', { name: 'https://hooks.example.org/new' })).toBeInTheDocument();
  });

  it('shows the server’s refusal under the address', async () => {
    mockFetch({
      'GET /api/v1/webhooks': { body: { webhooks: [] } },
      'POST /api/v1/webhooks': {
        status: 422,
        body: {
          message: 'The url must not point to a private or local address.',
          errors: { url: ['The url must not point to a private or local address.'] },
        },
      },
    });
    renderWithApp(<WebhooksPanel />);
    await userEvent.type(await screen.findByLabelText('Address (URL)'), 'http://127.0.0.1/');
    await userEvent.click(screen.getByRole('button', { name: 'Add webhook' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Address (URL)')).toHaveAccessibleDescription(
        expect.stringContaining('The url must not point to a private or local address.'),
      ),
    );
  });

  it('deletes a webhook after a confirmation', async () => {
    let listed = [webhook()];
    const calls = mockFetch({
      'GET /api/v1/webhooks': () => ({ body: { webhooks: listed } }),
      'POST /api/v1/webhooks/4': () => {
        listed = [];
        return { body: { message: 'Webhook was deleted.' } };
      },
    });
    renderWithApp(<WebhooksPanel />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Delete the webhook to https://hooks.example.org/runs' }),
    );
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: /delete|ok|yes/i }));
    await waitFor(() => expect(screen.getByText('You have no webhooks yet.')).toBeInTheDocument());
    expect(calls.find((call) => call.path === '/api/v1/webhooks/4')?.body).toEqual({ _method: 'DELETE' });
  });
});
