import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import login from 'virtual:i18n/login';
import shell from 'virtual:i18n/shell';
import { formatDate, formatNumber, formatPace } from '../../core/format.js';
import { api } from '../lib/api-client';
import { mockFetch } from '../test/fetch-mock';
import {
  browserLanguage,
  chooseLanguage,
  currentLanguage,
  defineTexts,
  followUserLocale,
  LANGUAGES,
  resolveLanguage,
  splitAround,
  startLanguage,
  t,
  useT,
} from './runtime';

afterEach(async () => {
  window.history.replaceState(null, '', '/');
  await followUserLocale(null);
  await chooseLanguage('en');
  window.localStorage.clear();
  vi.unstubAllGlobals();
});

function Title() {
  const t = useT(login);
  return <h1>{t('login.title')}</h1>;
}

describe('the language', () => {
  it('is the best match of the browser’s languages, then English', () => {
    expect(browserLanguage(['de-AT', 'en-US'])).toBe('de');
    expect(browserLanguage(['pt-BR', 'NL'])).toBe('nl');
    expect(browserLanguage(['pt-BR', 'ja'])).toBeNull();
    expect(browserLanguage(['pseudo'])).toBeNull();
    vi.stubGlobal('navigator', { languages: ['fr-CA', 'en'], language: 'fr-CA' });
    expect(resolveLanguage()).toBe('fr');
    vi.stubGlobal('navigator', { languages: ['ja'], language: 'ja' });
    expect(resolveLanguage()).toBe('en');
  });

  it('follows the signed-in user’s locale over the menu’s choice over the browser, and `auto` gives way', async () => {
    vi.stubGlobal('navigator', { languages: ['it-CH'], language: 'it-CH' });
    expect(resolveLanguage()).toBe('it');
    await chooseLanguage('es');
    expect(window.localStorage.getItem('language')).toBe('es');
    expect(currentLanguage()).toBe('es');
    await followUserLocale('de');
    expect(currentLanguage()).toBe('de');
    await chooseLanguage('fr');
    expect(currentLanguage()).toBe('de');
    await followUserLocale('auto');
    expect(currentLanguage()).toBe('fr');
    await followUserLocale(undefined);
    expect(currentLanguage()).toBe('fr');
  });

  it('ends on the latest choice when an earlier one’s texts arrive last', async () => {
    await Promise.all([chooseLanguage('nl'), chooseLanguage('en'), followUserLocale('it')]);
    expect(currentLanguage()).toBe('it');
    await Promise.all([followUserLocale(null), chooseLanguage('es'), chooseLanguage('de')]);
    expect(currentLanguage()).toBe('de');
  });

  it('sets <html lang>, the texts, the decimal separator and `auto` dates', async () => {
    await chooseLanguage('de');
    expect(document.documentElement.lang).toBe('de');
    expect(t('shell.nav.login')).toBe('Anmelden');
    expect(formatNumber(4.2)).toBe('4,20');
    expect(formatNumber(1234.5)).toBe('1234,50');
    expect(formatPace(5.35, 'km', 'decimal')).toBe('5,35');
    expect(formatDate('2026-03-07', 'auto')).toBe('07.03.2026');
    await chooseLanguage('nl');
    expect(formatDate('2026-03-07', 'auto')).toBe('07-03-2026');
    await chooseLanguage('fr');
    expect(formatDate('2026-03-07', 'auto')).toBe('07/03/2026');
    await chooseLanguage('en');
    expect(document.documentElement.lang).toBe('en');
    expect(formatNumber(4.2)).toBe('4.20');
    expect(formatDate('2026-03-07', 'auto')).toBe('03/07/2026');
    expect(formatDate('2026-03-07', 'DD/MM/YYYY')).toBe('07/03/2026');
  });

  it('is sent to the API as Accept-Language on every request', async () => {
    const calls = mockFetch({ 'GET /api/v1/ping': { body: {} } });
    await api.get('/ping', (json) => json);
    await chooseLanguage('it');
    await api.get('/ping', (json) => json);
    await chooseLanguage('pseudo');
    await api.get('/ping', (json) => json);
    expect(calls.map((call) => call.headers['accept-language'])).toEqual(['en', 'it', 'en']);
  });

  it('can be asked for in the address, the pseudo-language included (never in the menu)', async () => {
    window.history.replaceState(null, '', '/login?lang=pseudo');
    startLanguage();
    expect(currentLanguage()).toBe('pseudo');
    await act(async () => {
      render(
        <Suspense fallback={null}>
          <Title />
        </Suspense>,
      );
    });
    expect(await screen.findByRole('heading')).toHaveTextContent('[Lógíñ]');
  });
});

describe('a screen’s texts', () => {
  it('wait for their language’s chunk, then re-render when the language changes', async () => {
    render(
      <Suspense fallback={<p>waiting</p>}>
        <Title />
      </Suspense>,
    );
    expect(screen.getByRole('heading')).toHaveTextContent('Login');
    await act(() => chooseLanguage('es'));
    expect(screen.getByRole('heading')).toHaveTextContent('Iniciar sesión');
    await act(() => chooseLanguage('en'));
    expect(screen.getByRole('heading')).toHaveTextContent('Login');
  });

  it('start loading in the language as soon as their code arrives, before anything renders', async () => {
    // Loaders in every language: the texts stay defined for the other tests.
    const loadersOf = (load: () => Promise<{ default: Record<string, string> }>) =>
      Object.fromEntries([...LANGUAGES.map((language) => language.code), 'pseudo'].map((code) => [code, load]));
    await chooseLanguage('de');
    const loader = vi.fn(() => Promise.resolve({ default: { 'early.title': 'Früh' } }));
    const texts = defineTexts({ 'early.title': 'Early' }, loadersOf(loader));
    expect(loader).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(texts.loaded.has('de')).toBe(true));
    expect(t('early.title')).toBe('Früh');
    // In English, nothing to load.
    await chooseLanguage('en');
    const english = vi.fn(() => Promise.resolve({ default: {} }));
    defineTexts({ 'early.other': 'Other' }, loadersOf(english));
    expect(english).not.toHaveBeenCalled();
  });

  it('fill in placeholders and numbers in the language, and split around an element', async () => {
    expect(shell.loaders.de).toBeTypeOf('function');
    await chooseLanguage('fr');
    expect(t('shell.documentTitle', { title: 'Connexion' })).toBe('Connexion · Running Times');
    await chooseLanguage('de');
    expect(t('shell.documentTitle', { title: 1.5 })).toBe('1,5 · Running Times');
    await chooseLanguage('en');
    expect(splitAround(t, 'shell.documentTitle', 'title')).toEqual(['', ' · Running Times']);
  });
});
