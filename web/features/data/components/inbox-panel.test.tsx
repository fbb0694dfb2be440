import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { InboxPanel } from './inbox-panel';

const FIRST = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const SECOND = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const ROWS = [
  {
    file: 'morning.fit',
    source: 'morning.fit',
    status: 'created',
    reason: null,
    reason_code: null,
    entry_id: 7,
    at: '2026-03-18T07:00:00.000Z',
  },
  {
    file: 'ride.fit',
    source: 'ride.fit',
    status: 'skipped',
    reason: 'Not a run (cycling).',
    reason_code: 'not_a_run',
    entry_id: null,
    at: '2026-03-18T06:00:00.000Z',
  },
];

const panel = () => <InboxPanel />;

describe('InboxPanel', () => {
  it('turns the folder on, shows it and its recent files, replaces it after a warning, and turns it off', async () => {
    let folder: string | null = null;
    const calls = mockFetch({
      'GET /api/v1/inbox': () => ({ body: { inbox: { enabled: true, folder, recent: folder ? ROWS : [] } } }),
      'POST /api/v1/inbox': (request) => {
        folder = request.body?._method === 'DELETE' ? null : folder === null ? FIRST : SECOND;
        return { body: { inbox: { enabled: true, folder, recent: folder ? ROWS : [] } } };
      },
    });
    renderWithApp(panel());

    expect(await screen.findByRole('heading', { name: 'Inbox folder' })).toBeInTheDocument();
    expect(await screen.findByText('You have no inbox folder yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }));

    expect(await screen.findByLabelText('Your folder on the server')).toHaveValue(`INBOX_DIR/${FIRST}/`);
    expect(screen.getByText(/Syncthing: share a folder/)).toBeInTheDocument();
    expect(screen.getByText(/OpenTracks: turn on the automatic export/)).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Recent files' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByRole('link', { name: 'Created' })).toHaveAttribute('href', '/entry/7');
    expect(rows[2]).toHaveTextContent('Not a run (cycling).');

    await userEvent.click(screen.getByRole('button', { name: 'Replace folder' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('The current one is read no more');
    await userEvent.click(screen.getAllByRole('button', { name: 'Replace folder' }).at(-1)!);
    await waitFor(() => expect(screen.getByLabelText('Your folder on the server')).toHaveValue(`INBOX_DIR/${SECOND}/`));

    await userEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    await screen.findByRole('dialog');
    await userEvent.click(screen.getAllByRole('button', { name: 'Turn off' }).at(-1)!);
    expect(await screen.findByText('You have no inbox folder yet.')).toBeInTheDocument();

    const posts = calls.filter((call) => call.method === 'POST').map((call) => call.body ?? {});
    expect(posts).toEqual([{}, {}, { _method: 'DELETE' }]);
  });

  it('says when the server has the inbox off', async () => {
    mockFetch({ 'GET /api/v1/inbox': { body: { inbox: { enabled: false, folder: null, recent: [] } } } });
    renderWithApp(panel());
    expect(await screen.findByText(/The inbox folder is off on this server/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Turn on' })).toBeNull();
  });
});
