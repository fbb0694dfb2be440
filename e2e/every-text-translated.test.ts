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
import { realisticFit } from '../server/test/imports/track-fixtures.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  apiAddEntry,
  apiLogin,
  apiRegister,
  callApi,
  isoDay,
  settled,
  startJourney,
  type Journey,
} from './support/journey.js';

interface Screen {
  /**
   * `{run}` and `{tracked}` stand for the runner's two runs (one typed in, one from a watch file),
   * `{shoe}` for the runner's shoe, `{runner}` for the runner's id, `{adminRun}` for the admin's run,
   * `{route}` for the route of the runner's loop run twice and `{segment}` for a segment marked on it.
   */
  path: string;
  /** Who opens it: a visitor, a runner signed in (two runs, no title), or the admin. */
  as: 'guest' | 'runner' | 'admin';
  /** What else to wait for before reading (a map's controls, drawn by a chunk of its own). */
  waitFor?: string;
}

const SCREENS: Screen[] = [
  { path: '/', as: 'guest' },
  { path: '/login', as: 'guest' },
  // Single sign-on's answer on the login page (§21): a reason in the fragment, its own chunk.
  { path: '/login?lang=pseudo#oidc_error=link', as: 'guest' },
  { path: '/register', as: 'guest' },
  // The screens of mailed links (§21), without a token: the form or the note saying where the link is.
  { path: '/forgot-password', as: 'guest' },
  { path: '/reset-password', as: 'guest' },
  { path: '/verify-email', as: 'guest' },
  { path: '/accept-invitation', as: 'guest' },
  { path: '/confirm-email', as: 'guest' },
  { path: '/policy', as: 'guest' },
  { path: '/no-such-page', as: 'guest' },
  // The runner's menus, around a screen already translated.
  { path: '/no-such-page', as: 'runner' },
  // A run's page: typed in, and from a watch file (map, charts, splits, laps, zones, files). A missing
  // run's page shows the server's message in a toast: the German journey sees it in German.
  { path: '/entry/{run}', as: 'runner' },
  { path: '/entry/{tracked}', as: 'runner', waitFor: '.leaflet-control-zoom-in' },
  { path: '/admin/entry/{tracked}', as: 'admin', waitFor: '.leaflet-control-zoom-in' },
  { path: '/insights/map', as: 'runner', waitFor: '.leaflet-control-zoom-in' },
  { path: '/dashboard', as: 'runner' },
  { path: '/entries', as: 'runner' },
  { path: '/entry/new', as: 'runner' },
  { path: '/entry/edit/{run}', as: 'runner' },
  { path: '/goals', as: 'runner' },
  { path: '/shoes', as: 'runner' },
  { path: '/shoes/{shoe}', as: 'runner' },
  { path: '/routes', as: 'runner' },
  { path: '/routes/{route}', as: 'runner', waitFor: '.leaflet-control-zoom-in' },
  { path: '/segments', as: 'runner' },
  { path: '/segments/{segment}', as: 'runner' },
  { path: '/report/weekly', as: 'runner' },
  { path: '/insights/records', as: 'runner' },
  { path: '/insights/load', as: 'runner' },
  { path: '/insights/year', as: 'runner' },
  { path: '/data', as: 'runner' },
  { path: '/profile', as: 'runner' },
  { path: '/delete-account', as: 'guest' },
  { path: '/delete-account', as: 'runner' },
  // The admin panel.
  { path: '/admin/dashboard', as: 'admin' },
  { path: '/admin/users', as: 'admin' },
  { path: '/admin/user/show/{runner}', as: 'admin' },
  { path: '/admin/user/edit/{runner}', as: 'admin' },
  { path: '/admin/user/{runner}/entries', as: 'admin' },
  { path: '/admin/entries', as: 'admin' },
  { path: '/admin/entry/edit/{adminRun}', as: 'admin' },
];

/** Nothing listens there: every tile fails, as offline; the routes are drawn all the same. */
const UNREACHABLE_TILES = 'http://127.0.0.1:9/{z}/{x}/{y}.png';

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
  // Data, not the app's text: the nearest translate attribute says no (an option may say yes again).
  const isData = (element) => element.closest('[translate]')?.getAttribute('translate') === 'no';
  // Out of the visible text while it is read (through the CSSOM: the app's CSP allows no <style>):
  // data, and the selects, whose options are read one by one below.
  const kept = [...document.querySelectorAll('[translate="no"], select')];
  for (const element of kept) element.style.setProperty('display', 'none', 'important');
  for (const line of document.body.innerText.split('\\n')) {
    const rest = leftover(line);
    if (rest) found.push('text: ' + rest);
  }
  for (const element of kept) element.style.removeProperty('display');
  for (const option of document.body.querySelectorAll('option')) {
    const rest = isData(option) ? null : leftover(option.textContent);
    if (rest) found.push('option: ' + rest);
  }
  for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    if (isData(element)) continue;
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
  const runs: Record<string, number> = {};

  beforeAll(async () => {
    journey = await startJourney({ MAP_TILE_URL: UNREACHABLE_TILES });
    const { baseUrl } = journey.server;
    pages.guest = await journey.newPage();
    pages.runner = await journey.newPage();
    pages.admin = await journey.newPage();
    // Both themes: the admin's screens in the dark one, the others in the light one.
    await pages.admin.emulateMedia({ colorScheme: 'dark' });
    const runner = await apiRegister(baseUrl, {
      name: 'Pseudo Runner',
      email: 'pseudo.runner@example.com',
      password: 'pseudo-password-1',
    });
    runs.run = await apiAddEntry(baseUrl, runner.token, { date: isoDay(1), distance: 8, time: '00:44:00' });
    const form = new FormData();
    form.append('file', new Blob([realisticFit(2650, { start: new Date(`${isoDay(3)}T07:00:00Z`) })]), 'run.fit');
    // The same loop (seed 5 always runs the same way) on two days: a route, and a segment marked on it.
    for (const daysAgo of [20, 10]) {
      form.append(
        'file',
        new Blob([realisticFit(900, { seed: 5, start: new Date(`${isoDay(daysAgo)}T07:00:00Z`) })]),
        `loop-${daysAgo}.fit`,
      );
    }
    const imported = await fetch(`${baseUrl}/api/v1/import`, {
      method: 'POST',
      headers: { Accept: 'application/json', Authorization: `Bearer ${runner.token}` },
      body: form,
    });
    expect(imported.status, await imported.clone().text()).toBe(201);
    const listed = await callApi(baseUrl, 'GET', '/entry', { token: runner.token });
    const listedRuns = (listed.body.entries as { data: { id: number; date: string }[] }).data;
    runs.tracked = listedRuns.find((entry) => entry.date === isoDay(3))!.id;
    // Routes are grouped off the request path, after the import's answer.
    for (let waited = 0; runs.route === undefined; waited += 500) {
      const routes = (await callApi(baseUrl, 'GET', '/routes', { token: runner.token })).body.routes as {
        id: number;
      }[];
      if (routes.length > 0) runs.route = routes[0]!.id;
      else if (waited > 60_000) throw new Error('the loop run twice formed no route within a minute');
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const segment = await callApi(baseUrl, 'POST', '/segments', {
      token: runner.token,
      body: {
        entry_id: listedRuns.find((entry) => entry.date === isoDay(10))!.id,
        start_m: 200,
        end_m: 900,
        name: 'Hill',
      },
    });
    expect(segment.status, JSON.stringify(segment.body)).toBe(201);
    runs.segment = (segment.body.segment as { id: number }).id;
    const shoe = await callApi(baseUrl, 'POST', '/shoes', { token: runner.token, body: { name: 'Pegasus 41' } });
    expect(shoe.status).toBe(201);
    runs.shoe = (shoe.body.shoe as { id: number }).id;
    runs.runner = runner.id;
    const admin = await apiLogin(baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    runs.adminRun = await apiAddEntry(baseUrl, admin, { date: isoDay(1), distance: 10.5, time: '00:52:30' });
    for (const [as, token] of [
      ['runner', runner.token],
      ['admin', admin],
    ] as const) {
      await pages[as]!.goto('/policy');
      await pages[as]!.evaluate(`window.localStorage.setItem('access_token', ${JSON.stringify(token)})`);
    }
  });

  afterAll(async () => {
    await journey?.close();
  });

  it.each(SCREENS)('$path ($as)', async ({ path: template, as, waitFor }) => {
    const page = pages[as]!;
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => String(runs[name]));
    await page.goto(`${path}${path.includes('?') ? '&' : '?'}lang=pseudo`);
    await page.locator('h1').first().waitFor();
    await settled(page);
    if (waitFor) await page.locator(waitFor).first().waitFor();
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('en');
    // The heading is the app's text, or data (a shoe's name) marked as such.
    const heading = page.locator('h1').first();
    if ((await heading.locator('[translate="no"]').count()) === 0)
      expect(await heading.textContent()).toMatch(/^\[.*\]$/);
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
