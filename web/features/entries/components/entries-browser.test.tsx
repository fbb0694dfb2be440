import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EntriesSummary } from '../../../../core/schemas.js';
import { mockFetch, type MockRequest } from '../../../test/fetch-mock';
import { makeEntry, paged } from '../../../test/fixtures';
import { currentPath, renderWithApp } from '../../../test/render';
import { rememberAddedRun } from '../added-run';
import { useEntries } from '../api/get-entries';
import { EntriesBrowser } from './entries-browser';

const SUMMARY: EntriesSummary = { runs: 12, distance: 84.5, seconds: 25_953, avg_pace: 5.12 };

function serveEntries(summary: EntriesSummary = SUMMARY) {
  return mockFetch({
    'GET /api/v1/entry': { body: { entries: paged([makeEntry({ id: 1, date: '2024-03-09' })]), summary } },
  });
}

const queryOf = (call: MockRequest) => Object.fromEntries(new URL(call.url, 'http://localhost').searchParams);

/** The notice of a run just added (the location probe is a status too). */
const findNotice = async () => (await screen.findByText(/Your new run/)).closest<HTMLElement>('[role="status"]')!;

function renderBrowser(route = '/entries', display = {}) {
  return renderWithApp(<EntriesBrowser useList={useEntries} place="own" sortable />, {
    path: '/entries',
    route,
    display,
  });
}

describe('EntriesBrowser', () => {
  it('shows the totals of every run of the list above the table', async () => {
    serveEntries();
    renderBrowser();
    const totals = await screen.findByLabelText('Totals of all your runs');
    expect(totals).toHaveTextContent('12 runs · 84.50 km · 07:12:33 · average pace 5.12 min/km');
  });

  it('names the filtered period, in the runner\u2019s pace format', async () => {
    serveEntries({ runs: 1, distance: 10, seconds: 3210, avg_pace: 5.35 });
    renderBrowser('/entries?dateFrom=2024-03-01&dateTo=2024-03-31', { paceFormat: 'clock' });
    expect(await screen.findByLabelText('Totals of the filtered period')).toHaveTextContent(
      '1 run · 10.00 km · 00:53:30 · average pace 5:21 /km',
    );
  });

  it('sorts by the chosen column and keeps the order in the address', async () => {
    const calls = serveEntries();
    renderBrowser();
    const sort = await screen.findByLabelText('Sort by');
    expect(sort).toHaveValue('-date');
    expect(queryOf(calls[0]!).sort).toBeUndefined();
    await userEvent.selectOptions(sort, 'Fastest pace first');
    await waitFor(() => expect(currentPath()).toBe('/entries?sort=pace'));
    await waitFor(() => expect(queryOf(calls.at(-1)!)).toMatchObject({ sort: 'pace', page: '1' }));
  });

  it('shows 15, 50 or 100 runs a page, from the first page', async () => {
    const calls = serveEntries();
    renderBrowser('/entries?page=3');
    const perPage = await screen.findByLabelText('Per page');
    expect(
      within(perPage)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['15', '50', '100']);
    await userEvent.selectOptions(perPage, '50');
    await waitFor(() => expect(currentPath()).toBe('/entries?per_page=50'));
    await waitFor(() => expect(queryOf(calls.at(-1)!)).toMatchObject({ per_page: '50', page: '1' }));
  });

  it('clears a filter that would hide a run just added, and says so', async () => {
    const calls = serveEntries();
    rememberAddedRun({ id: 77, date: '2024-04-02' });
    renderBrowser('/entries?dateFrom=2024-03-01&dateTo=2024-03-31');
    const notice = await findNotice();
    expect(notice).toHaveTextContent(
      'Your new run of 04/02/2024 was added. The date filter was cleared so that the list shows it.',
    );
    expect(within(notice).getByRole('link', { name: 'Open it' })).toHaveAttribute('href', '/entry/77');
    await waitFor(() => expect(currentPath()).toBe('/entries'));
    await waitFor(() => expect(queryOf(calls.at(-1)!).dateFrom).toBeUndefined());
  });

  it('keeps a filter that shows the run just added', async () => {
    serveEntries();
    rememberAddedRun({ id: 78, date: '2024-03-15' });
    renderBrowser('/entries?dateFrom=2024-03-01&dateTo=2024-03-31');
    const notice = await findNotice();
    expect(notice).toHaveTextContent('Your new run of 03/15/2024 was added.');
    expect(notice).not.toHaveTextContent('cleared');
    expect(currentPath()).toBe('/entries?dateFrom=2024-03-01&dateTo=2024-03-31');
  });
});
