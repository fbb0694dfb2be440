import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '../../../../core/schemas.js';
import { chooseLanguage, followUserLocale } from '../../../i18n/runtime';
import { queryKeys } from '../../../lib/query-keys';
import { TOKEN_KEY } from '../../../lib/token-storage';
import { mockFetch } from '../../../test/fetch-mock';
import { makeAppConfig, makeUser } from '../../../test/fixtures';
import { renderRoutes, renderWithApp } from '../../../test/render';
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

describe('the language, in the preferences', () => {
  afterEach(async () => {
    await followUserLocale(null);
    await chooseLanguage('en');
  });

  it('offers the browser’s or one of the six, each named in itself, and saves the choice with the profile', async () => {
    const user = makeUser({ id: 7, name: 'Rita', email: 'rita@example.com', locale: 'auto' });
    const calls = mockFetch({
      'POST /api/v1/user/7': (request) => ({ body: { user: { ...user, ...request.body, _method: undefined } } }),
    });
    const { queryClient } = renderWithApp(<PreferencesForm user={user} />);
    const language = screen.getByLabelText('Language');
    expect(language).toHaveValue('auto');
    const options = within(language).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'As your browser',
      'English',
      'Deutsch',
      'Français',
      'Español',
      'Italiano',
      'Nederlands',
    ]);
    // A language's own name is not the app's text: its own `lang`, and left alone by translators.
    expect(options.slice(1).map((option) => option.getAttribute('lang'))).toEqual(['en', 'de', 'fr', 'es', 'it', 'nl']);
    for (const option of options.slice(1)) expect(option).toHaveAttribute('translate', 'no');
    expect(options[0]).not.toHaveAttribute('translate', 'no');

    await userEvent.selectOptions(language, 'Deutsch');
    await userEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).toMatchObject({ locale: 'de' });
    await waitFor(() => expect(queryClient.getQueryData(queryKeys.me)).toMatchObject({ locale: 'de' }));
  });

  it('switches the app to the saved language, <html lang> with it', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'token');
    let me = makeUser({ id: 7, name: 'Rita', email: 'rita@example.com', locale: 'auto' });
    const calls = mockFetch({
      'GET /api/v1/user/me': () => ({ body: me }),
      'GET /api/v1/app-config': { body: makeAppConfig() },
      'GET /api/v1/tokens': { body: { tokens: [] } },
      'POST /api/v1/user/7': (request) => {
        me = { ...me, ...(request.body as Partial<User>), _method: undefined } as User;
        return { body: { user: me } };
      },
    });
    renderRoutes('/profile');
    expect(await screen.findByRole('heading', { level: 1, name: 'My Profile' }, { timeout: 5000 })).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Language'), 'Français');
    await userEvent.click(screen.getByRole('button', { name: 'Save preferences' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Mon profil' }, { timeout: 5000 })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('fr');
    expect(screen.getByLabelText('Langue')).toHaveValue('fr');
    expect(await screen.findByText('Vos préférences ont été enregistrées !')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ locale: 'fr' });
    // The whole app and each screen's French texts load: more than the default 5 s on a busy machine.
  }, 20_000);
});
