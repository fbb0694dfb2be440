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
});
