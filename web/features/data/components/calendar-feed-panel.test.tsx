import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { renderWithApp } from '../../../test/render';
import { CalendarFeedPanel } from './calendar-feed-panel';

const FIRST = 'https://runs.example.org/ical/aaaaaaaaaaaaaaaaaaaaaaaa.ics';
const SECOND = 'https://runs.example.org/ical/bbbbbbbbbbbbbbbbbbbbbbbb.ics';

describe('CalendarFeedPanel', () => {
  it('creates the address, copies it, replaces it after a warning, and removes it', async () => {
    let url: string | null = null;
    const calls = mockFetch({
      'GET /api/v1/calendar-feed': () => ({ body: { calendar_feed: { url } } }),
      'POST /api/v1/calendar-feed': (request) => {
        url = request.body?._method === 'DELETE' ? null : url === null ? FIRST : SECOND;
        return { body: { calendar_feed: { url } } };
      },
    });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithApp(<CalendarFeedPanel />);

    expect(await screen.findByRole('heading', { name: 'Calendar feed' })).toBeInTheDocument();
    expect(await screen.findByText('You have no calendar feed yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create address' }));

    expect(await screen.findByLabelText('Calendar feed address')).toHaveValue(FIRST);
    expect(screen.getByText(/To subscribe, copy the address/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(FIRST);

    await userEvent.click(screen.getByRole('button', { name: 'Replace address' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('The current one stops working at once');
    await userEvent.click(screen.getAllByRole('button', { name: 'Replace address' }).at(-1)!);
    await waitFor(() => expect(screen.getByLabelText('Calendar feed address')).toHaveValue(SECOND));

    await userEvent.click(screen.getByRole('button', { name: 'Remove feed' }));
    await screen.findByRole('dialog');
    await userEvent.click(screen.getAllByRole('button', { name: 'Remove feed' }).at(-1)!);
    expect(await screen.findByText('You have no calendar feed yet.')).toBeInTheDocument();

    const posts = calls.filter((call) => call.method === 'POST').map((call) => call.body ?? {});
    expect(posts).toEqual([{}, {}, { _method: 'DELETE' }]);
  });

  it('keeps the address when the warning is cancelled, and shows a refusal as the app’s toast', async () => {
    mockFetch({
      'GET /api/v1/calendar-feed': { body: { calendar_feed: { url: FIRST } } },
      'POST /api/v1/calendar-feed': {
        status: 403,
        body: { message: 'Demo accounts have no calendar feed.' },
      },
    });
    renderWithApp(<CalendarFeedPanel />);
    expect(await screen.findByLabelText('Calendar feed address')).toHaveValue(FIRST);
    await userEvent.click(screen.getByRole('button', { name: 'Replace address' }));
    await screen.findByRole('dialog');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByLabelText('Calendar feed address')).toHaveValue(FIRST);

    await userEvent.click(screen.getByRole('button', { name: 'Remove feed' }));
    await screen.findByRole('dialog');
    await userEvent.click(screen.getAllByRole('button', { name: 'Remove feed' }).at(-1)!);
    expect(await screen.findByRole('alert')).toHaveTextContent('Demo accounts have no calendar feed.');
  });
});
