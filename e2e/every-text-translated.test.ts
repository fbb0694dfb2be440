/**
 * Every text a screen shows comes from the catalogs (CONTRACT.md §19, web/i18n/README.md): each
 * screen opened in the pseudo-language (`?lang=pseudo`: English accented and in brackets), then
 * its visible text, its `aria-label`s, `title`s, `placeholder`s and `alt`s and the document title
 * must hold no letter outside the brackets. What is not the app's text (a runner's name, a
 * language's own name in the language menu) is marked `translate="no"`.
 *
 * Adding a screen: one line in SCREENS, with the heading it opens with.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  apiAddEntry,
  apiLogin,
  apiRegister,
  isoDay,
  settled,
  startJourney,
  type Journey,
} from './support/journey.js';

interface Screen {
  /** `:runner` stands for the run-less runner's id, `:adminRun` for the admin's run. */
  path: string;
  /** Who opens it: a visitor, a runner signed in with a run-less account, or the admin, who has a run. */
  as: 'guest' | 'runner' | 'admin';
}

const SCREENS: Screen[] = [
  { path: '/', as: 'guest' },
  { path: '/login', as: 'guest' },
  { path: '/register', as: 'guest' },
  { path: '/policy', as: 'guest' },
  { path: '/no-such-page', as: 'guest' },
  // The runner's menus, around a screen already translated.
  { path: '/no-such-page', as: 'runner' },
  // The runner's screens join as their texts move into the catalogs.
  { path: '/dashboard', as: 'runner' },
  { path: '/goals', as: 'runner' },
  { path: '/report/weekly', as: 'runner' },
  { path: '/insights/records', as: 'runner' },
  { path: '/insights/load', as: 'runner' },
  { path: '/insights/year', as: 'runner' },
  { path: '/data', as: 'runner' },
  { path: '/admin/dashboard', as: 'admin' },
  { path: '/admin/users', as: 'admin' },
  { path: '/admin/user/show/:runner', as: 'admin' },
  { path: '/admin/user/edit/:runner', as: 'admin' },
  { path: '/admin/user/:runner/entries', as: 'admin' },
  { path: '/entries', as: 'runner' },
  { path: '/entry/new', as: 'runner' },
  { path: '/entries', as: 'admin' },
  { path: '/entry/edit/:adminRun', as: 'admin' },
  { path: '/admin/entries', as: 'admin' },
  { path: '/admin/entry/edit/:adminRun', as: 'admin' },
  { path: '/delete-account', as: 'guest' },
  { path: '/delete-account', as: 'runner' },
  { path: '/profile', as: 'runner' },
  { path: '/shoes', as: 'runner' },
];

/**
 * Runs in the page: the texts with a letter outside the pseudo-language's brackets. Brackets nest
 * (a title inside the document title's message), so the innermost ones go first, repeatedly.
 */
const UNTRANSLATED = `(() => {
  const leftover = (text) => {
    let rest = text;
    for (let before = ''; before !== rest; ) { before = rest; rest = rest.replace(/\\[[^\\[\\]]*\\]/g, ' '); }
    return /\\p{L}/u.test(rest) ? rest.replace(/\\s+/g, ' ').trim() : null;
  };
  const found = [];
  // Out of the visible text while it is read (through the CSSOM: the app's CSP allows no <style>).
  const kept = [...document.querySelectorAll('[translate="no"]')];
  for (const element of kept) element.style.setProperty('display', 'none', 'important');
  for (const line of document.body.innerText.split('\\n')) {
    const rest = leftover(line);
    if (rest) found.push('text: ' + rest);
  }
  for (const element of kept) element.style.removeProperty('display');
  for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    if (element.closest('[translate="no"]')) continue;
    for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
      const value = element.getAttribute(name);
      const rest = value === null ? null : leftover(value);
      if (rest) found.push(name + ' of <' + element.tagName.toLowerCase() + '>: ' + rest);
    }
  }
  const title = leftover(document.title);
  if (title) found.push('document title: ' + title);
  return found;
})()`;

describe('every text from the catalogs, seen in the pseudo-language', () => {
  let journey: Journey;
  const pages: Partial<Record<Screen['as'], Page>> = {};
  let runnerId = 0;
  let adminRun = 0;

  beforeAll(async () => {
    journey = await startJourney();
    pages.guest = await journey.newPage();
    pages.runner = await journey.newPage();
    const runner = await apiRegister(journey.server.baseUrl, {
      name: 'Pseudo Runner',
      email: 'pseudo.runner@example.com',
      password: 'pseudo-password-1',
    });
    await pages.runner.goto('/policy');
    await pages.runner.evaluate(`window.localStorage.setItem('access_token', ${JSON.stringify(runner.token)})`);
    runnerId = runner.id;
    pages.admin = await journey.newPage();
    const adminToken = await apiLogin(journey.server.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    adminRun = await apiAddEntry(journey.server.baseUrl, adminToken, {
      date: isoDay(1),
      distance: 10.5,
      time: '00:52:30',
    });
    await pages.admin.goto('/policy');
    await pages.admin.evaluate(`window.localStorage.setItem('access_token', ${JSON.stringify(adminToken)})`);
  });

  afterAll(async () => {
    await journey?.close();
  });

  it.each(SCREENS)('$path ($as)', async ({ path: template, as }) => {
    const page = pages[as]!;
    const path = template.replace(':runner', String(runnerId)).replace(':adminRun', String(adminRun));
    await page.goto(`${path}${path.includes('?') ? '&' : '?'}lang=pseudo`);
    await page.locator('h1').first().waitFor();
    await settled(page);
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('en');
    expect(await page.locator('h1').first().textContent()).toMatch(/^\[.*\]$/);
    expect(await page.evaluate<string[]>(UNTRANSLATED)).toEqual([]);
  });

  it('shows the guest screens in a language chosen from the menu, and keeps it', async () => {
    const page = pages.guest!;
    await page.goto('/login?lang=en');
    await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
    await page.getByRole('heading', { level: 1, name: 'Anmelden' }).waitFor();
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('de');
    expect(await page.title()).toBe('Anmelden · Running Times');
    await page.goto('/register');
    await page.getByRole('heading', { level: 1, name: 'Registrieren' }).waitFor();
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en');
    await page.getByRole('heading', { level: 1, name: 'Register' }).waitFor();
  });
});
