import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../../lib/query-keys';
import { mockFetch } from '../../../test/fetch-mock';
import { makeUser } from '../../../test/fixtures';
import { renderWithApp } from '../../../test/render';
import { PreferencesForm } from './preferences-form';

describe('PreferencesForm', () => {
  it('saves units, pace and date formats and theme with the profile update and makes the saved user current', async () => {
    const user = makeUser({ id: 7, name: 'Rita', email: 'rita@example.com' });
    const calls = mockFetch({
      'POST /api/v1/user/7': (request) => ({ body: { user: { ...user, ...request.body, _method: undefined } } }),
    });
    const { queryClient } = renderWithApp(<PreferencesForm user={user} />);
    expect(screen.getByLabelText('Units')).toHaveValue('km');
    expect(screen.getByLabelText('Theme')).toHaveValue('auto');
    await userEvent.selectOptions(screen.getByLabelText('Units'), 'mi');
    expect(screen.getByLabelText('Pace format')).toHaveValue('decimal');
    expect(screen.getByLabelText('Date format')).toHaveValue('MM/DD/YYYY');
    await userEvent.selectOptions(screen.getByLabelText('Pace format'), 'Minutes and seconds (5:21)');
    await userEvent.selectOptions(screen.getByLabelText('Date format'), 'DD/MM/YYYY (14/08/2026)');
    await userEvent.selectOptions(screen.getByLabelText('Theme'), 'dark');
    await userEvent.click(screen.getByRole('button', { name: 'Save preferences' }));

    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).toEqual({
      _method: 'PUT',
      name: 'Rita',
      email: 'rita@example.com',
      units: 'mi',
      pace_format: 'clock',
      date_format: 'DD/MM/YYYY',
      theme: 'dark',
    });
    await waitFor(() =>
      expect(queryClient.getQueryData(queryKeys.me)).toMatchObject({
        units: 'mi',
        pace_format: 'clock',
        date_format: 'DD/MM/YYYY',
        theme: 'dark',
      }),
    );
    expect(await screen.findByText('Your preferences were saved!')).toBeInTheDocument();
  });

  it('sets, changes and clears the maximum and resting heart rates, sending only what changed', async () => {
    const user = makeUser({ id: 7, name: 'Rita', email: 'rita@example.com', max_heart_rate: 188 });
    const calls = mockFetch({
      'POST /api/v1/user/7': (request) => ({ body: { user: { ...user, ...request.body, _method: undefined } } }),
    });
    renderWithApp(<PreferencesForm user={user} />);
    const max = screen.getByLabelText('Maximum heart rate (bpm)');
    const resting = screen.getByLabelText('Resting heart rate (bpm)');
    expect(max).toHaveValue('188');
    expect(resting).toHaveValue('');
    // Without a maximum, the zones come from the tracks: the hint says so.
    expect(max).toHaveAccessibleDescription(/Left empty, they are drawn from the highest heart rate of your tracks/);

    await userEvent.type(resting, '48');
    await userEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).toMatchObject({ resting_heart_rate: 48 });
    expect(calls[0]?.body).not.toHaveProperty('max_heart_rate');

    await userEvent.clear(max);
    await userEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]?.body).toMatchObject({ max_heart_rate: null, resting_heart_rate: 48 });
  });

  it("refuses a heart rate out of range with the server's message, before sending", async () => {
    const user = makeUser({ id: 7 });
    const calls = mockFetch({});
    renderWithApp(<PreferencesForm user={user} />);
    await userEvent.type(screen.getByLabelText('Maximum heart rate (bpm)'), '300');
    await userEvent.type(screen.getByLabelText('Resting heart rate (bpm)'), 'sixty');
    await userEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    expect(
      await screen.findByText('The maximum heart rate must be a whole number of beats per minute from 100 to 250.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('The resting heart rate must be a whole number of beats per minute from 25 to 120.'),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
