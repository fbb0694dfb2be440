import { useMutation } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Dashboard, User } from '../../../../core/schemas.js';
import { updateUser } from '../../../lib/users-api';
import { mockFetch, type MockRequest } from '../../../test/fetch-mock';
import { makeUser } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { DashboardStats, welcomeAskedKey } from './dashboard-stats';

const noRuns: Dashboard = {
  weekly_count: 0,
  weekly_avg_speed: null,
  weekly_avg_pace: null,
  max_speed: null,
  max_distance: null,
  max_time: null,
  week_chart: [],
};

const user = makeUser({ id: 7, units: 'mi', pace_format: 'clock', date_format: 'YYYY-MM-DD', locale: 'auto' });

function serve(): MockRequest[] {
  return mockFetch({
    'GET /api/v1/dashboard/data': { body: noRuns },
    // An update goes as POST with `_method: 'PUT'` (web/lib/api-client.ts).
    'POST /api/v1/user/7': (request) => ({ body: { user: { ...user, ...request.body } } }),
  });
}

/**
 * The dashboard as its route shows it: with the runner and the profile update (the route hands
 * down the profile's `useUpdateProfile`, which is this mutation of `updateUser` and a cache refresh).
 */
function Dashboard({ runner = user }: { runner?: User }) {
  const update = useMutation({ mutationFn: updateUser });
  return <DashboardStats welcome={{ user: runner, update }} />;
}

const question = () => screen.queryByRole('form', { name: 'How should we show your runs?' });

async function openWelcome() {
  await screen.findByRole('heading', { name: 'Welcome to Running Times!' });
  return await screen.findByRole('form', { name: 'How should we show your runs?' });
}

const optionTexts = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('the welcome asks the preferences once', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-08-14T12:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows an example of each choice, filled in with the runner's values", async () => {
    serve();
    renderWithApp(<Dashboard />);
    await openWelcome();

    const units = screen.getByLabelText('Units');
    const pace = screen.getByLabelText('Pace');
    const dates = screen.getByLabelText('Dates');
    const language = screen.getByLabelText('Language');
    expect(units).toHaveValue('mi');
    expect(pace).toHaveValue('clock');
    expect(dates).toHaveValue('YYYY-MM-DD');
    expect(language).toHaveValue('auto');

    // In the runner's unit: 5.26 min/km is 8.47 min/mi.
    expect(optionTexts(pace)).toEqual(['8.47 per mi (decimal)', '8:28 per mi (min:sec)']);
    await userEvent.selectOptions(units, 'km');
    expect(optionTexts(pace)).toEqual(['5.26 per km (decimal)', '5:16 per km (min:sec)']);

    expect(optionTexts(dates)).toEqual([
      '08/14/2026 (your language)',
      '08/14/2026 (m/d/y)',
      '14/08/2026 (d/m/y)',
      '2026-08-14 (y-m-d)',
    ]);
    await userEvent.selectOptions(language, 'de');
    expect(optionTexts(dates)[0]).toBe('14.08.2026 (your language)');

    expect(optionTexts(language)).toEqual([
      'As your browser',
      'English',
      'Deutsch',
      'Français',
      'Español',
      'Italiano',
      'Nederlands',
    ]);
  });

  it('saves the chosen values with the profile update, then asks no more', async () => {
    const calls = serve();
    const first = renderWithApp(<Dashboard />);
    await openWelcome();

    await userEvent.selectOptions(screen.getByLabelText('Units'), 'km');
    await userEvent.selectOptions(screen.getByLabelText('Pace'), 'decimal');
    await userEvent.selectOptions(screen.getByLabelText('Dates'), 'auto');
    await userEvent.selectOptions(screen.getByLabelText('Language'), 'fr');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(question()).not.toBeInTheDocument());
    const save = calls.find((call) => call.path === '/api/v1/user/7');
    expect(save?.body).toEqual({
      _method: 'PUT',
      name: user.name,
      email: user.email,
      units: 'km',
      pace_format: 'decimal',
      date_format: 'auto',
      locale: 'fr',
    });
    expect(window.localStorage.getItem(welcomeAskedKey(7))).not.toBeNull();
    // The rest of the welcome stays.
    expect(screen.getByRole('link', { name: 'Add your first run' })).toBeInTheDocument();

    first.unmount();
    renderWithApp(<Dashboard />);
    await screen.findByRole('heading', { name: 'Welcome to Running Times!' });
    await screen.findByText('Bring your history');
    expect(question()).not.toBeInTheDocument();
  });

  it('asks no more after "Not now", and saves nothing', async () => {
    const calls = serve();
    const first = renderWithApp(<Dashboard />);
    await openWelcome();

    await userEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(question()).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Bring your history' })).toBeInTheDocument();
    expect(calls.some((call) => call.method !== 'GET')).toBe(false);

    first.unmount();
    renderWithApp(<Dashboard />);
    await screen.findByRole('heading', { name: 'Welcome to Running Times!' });
    expect(question()).not.toBeInTheDocument();
  });

  it("is asked of each runner on their own: another runner's answer does not count", async () => {
    window.localStorage.setItem(welcomeAskedKey(8), '1');
    serve();
    renderWithApp(<Dashboard />);
    expect(await openWelcome()).toBeInTheDocument();
  });

  it('is not asked without a signed-in runner', async () => {
    serve();
    renderWithApp(<DashboardStats />);
    await screen.findByRole('link', { name: 'Add your first run' });
    expect(question()).not.toBeInTheDocument();
  });
});
