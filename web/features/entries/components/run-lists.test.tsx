import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { makeEntry, paged } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { RecentRuns } from './run-lists';

const summary = { runs: 0, distance: 0, seconds: 0, avg_pace: null };

describe('Recent runs', () => {
  it('lists the last five runs, each opening its page, in the runner\u2019s formats', async () => {
    const runs = [
      makeEntry({ id: 9, date: '2026-03-17', title: 'Easy loop', distance: 8, time: '00:44:00' }),
      makeEntry({ id: 8, date: '2026-03-15', distance: 21.1, time: '01:52:30' }),
    ];
    const calls = mockFetch({ 'GET /api/v1/entry': { body: { entries: paged(runs), summary } } });
    renderWithApp(<RecentRuns />, { display: { dateFormat: 'DD/MM/YYYY', paceFormat: 'clock' } });
    const panel = screen.getByRole('region', { name: 'Recent runs' });
    expect(await within(panel).findByRole('link', { name: '17/03/2026 · Easy loop' })).toHaveAttribute(
      'href',
      '/entry/9',
    );
    expect(within(panel).getByRole('link', { name: '15/03/2026' })).toHaveAttribute('href', '/entry/8');
    expect(within(panel).getByRole('link', { name: 'Edit entry of 15/03/2026' })).toHaveAttribute(
      'href',
      '/entry/edit/8',
    );
    expect(panel).toHaveTextContent('8.00 km · 00:44:00 · 5:30 /km');
    expect(new URL(calls[0]!.url, 'http://localhost').searchParams.get('per_page')).toBe('5');
  });

  it('says where new runs will show before the first one', async () => {
    mockFetch({ 'GET /api/v1/entry': { body: { entries: paged([]), summary } } });
    renderWithApp(<RecentRuns />);
    expect(await screen.findByText('No runs yet: the runs you add show here.')).toBeInTheDocument();
  });
});
