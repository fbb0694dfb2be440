/**
 * A runner's first five minutes (issue 30) in real Chromium: every page at 375 and 1280 px, in
 * the light and the dark theme, axe clean, never wider than the screen, nothing of the main content
 * hidden by the layout (issue 42: too wide for its box with no scroller, a control's text cut), one
 * screenshot each into a folder the run prints when E2E_SCREENSHOTS=1 (photographing some two hundred
 * full pages costs CI a minute that no assertion needs); and what only a browser shows: a run typed with a decimal comma, the runs as cards on a phone with titles and
 * e-mail addresses wrapped between words, and the year's grid opened at today.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gz, stravaCsv, zip } from '../server/test/imports/fixtures.js';
import { realisticFit } from '../server/test/imports/track-fixtures.js';
import { seriousViolations } from './support/axe.js';
import { hiddenByLayout } from './support/layout.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  apiLogin,
  apiRegister,
  callApi,
  currentDay,
  isoDay,
  settled,
  shownDate,
  startJourney,
  type Journey,
} from './support/journey.js';

const LONG_TITLE = 'Long Sunday run along the river and back over the hills';
const LONG_EMAIL = 'pat.pages.with.a.rather.long.address@example-running-club.org';
/** Nothing listens there: the run's map draws its line without tiles, as offline. */
const UNREACHABLE_TILES = 'http://127.0.0.1:9/{z}/{x}/{y}.png';
const TRACKED_DAY = isoDay(3);

/**
 * A Strava export (twelve runs and a ride that is skipped) and two watch files with long names: the
 * preview's every column, and more rows than a screen holds.
 */
const EXPORT_ARCHIVE = Buffer.from(
  zip({
    'activities.csv': stravaCsv([
      ...Array.from({ length: 10 }, (_, k) => ({
        id: 100 + k,
        start: new Date(Date.UTC(2024, 1, 1 + k, 7)),
        name: `Easy run number ${k + 1}`,
        type: 'Run',
        metres: 8000 + 250 * k,
        moving: 2500 + 60 * k,
        elapsed: 2600 + 60 * k,
      })),
      {
        id: 11,
        start: new Date('2024-03-12T18:00:00Z'),
        name: 'Tempo along the canal with the Thursday group',
        type: 'Run',
        metres: 10_020.5,
        moving: 2700,
        elapsed: 2800,
      },
      {
        id: 12,
        start: new Date('2024-03-13T07:00:00Z'),
        name: 'Commute',
        type: 'Ride',
        metres: 12_000,
        moving: 1800,
        elapsed: 1900,
      },
      {
        id: 13,
        start: new Date('2024-03-14T06:30:00Z'),
        name: 'Hills',
        type: 'Trail Run',
        metres: null,
        moving: null,
        elapsed: 0,
        filename: 'activities/morning-hill-repeats-on-the-north-side-2024-03-14.fit.gz',
      },
    ]),
    'activities/morning-hill-repeats-on-the-north-side-2024-03-14.fit.gz': gz(
      realisticFit(600, { start: new Date('2024-03-14T06:30:00Z') }),
    ),
  }),
);

interface Seeded {
  runner: { token: string; id: number };
  newcomer: { token: string };
  admin: string;
  runId: number;
  trackedRunId: number;
  shoeId: number;
}

/** A visit as the holder of `token` (none: a visitor), whose stored session the app checks on load. */
async function signIn(page: Page, token: string | null): Promise<void> {
  await page.goto('/policy');
  await page.evaluate<void>(
    token
      ? `window.localStorage.setItem('access_token', ${JSON.stringify(token)})`
      : "window.localStorage.removeItem('access_token')",
  );
}

/** Opens a path and waits for its h1 and for every request of the screen. */
async function open(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await settled(page);
}

/** Waits for a tracked run's line on its map and for its splits. */
async function trackDrawn(page: Page): Promise<void> {
  await page.locator('.leaflet-overlay-pane path').first().waitFor();
  await page.getByRole('table', { name: 'Splits' }).waitFor();
}

/** Opens the preview of an export with long file names (nothing is imported). */
async function previewImport(page: Page): Promise<void> {
  await page.getByLabel('Drop files here, or choose them').setInputFiles([
    { name: 'export_2024_03_from_the_watch.zip', mimeType: 'application/zip', buffer: EXPORT_ARCHIVE },
    ...[20, 21].map((day) => ({
      name: `garmin-forerunner-activity-2024-03-${day}-long-run-by-the-lake.fit`,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(realisticFit(300, { start: new Date(`2024-03-${day}T07:00:00Z`) })),
    })),
  ]);
  await page.getByRole('button', { name: 'Preview import' }).click();
  await page.getByText('Not a run (Ride).').waitFor();
  await settled(page);
}

const overflowOf = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

describe('every page, at 375 and 1280 px, light and dark', () => {
  let journey: Journey;
  let seeded: Seeded;
  /** The folder of the screenshots, one per screen, width and theme (E2E_SCREENSHOTS=1), or null. */
  let shots: string | null = null;

  beforeAll(async () => {
    journey = await startJourney({ MAP_TILE_URL: UNREACHABLE_TILES });
    const { baseUrl } = journey.server;
    const runner = await apiRegister(baseUrl, { name: 'Pat Pages', email: LONG_EMAIL, password: 'pat-password-1' });
    const newcomer = await apiRegister(baseUrl, {
      name: 'Nia New',
      email: 'nia@example.com',
      password: 'nia-password-1',
    });
    const post = async (path: string, body: Record<string, unknown>) => {
      const result = await callApi(baseUrl, 'POST', path, { token: runner.token, body });
      expect(result.status, JSON.stringify(result.body)).toBe(201);
      return result.body;
    };
    const shoe = (await post('/shoes', { name: 'Trail shoes with a long name', start_km: 120, is_default: true }))
      .shoe as { id: number };
    const run = (
      await post('/entry', {
        date: isoDay(1),
        distance: 21.1,
        time: '01:52:30',
        title: LONG_TITLE,
        notes: 'Windy on the way out.\nFelt good on the way back.',
        kind: 'long',
        effort: 6,
      })
    ).entry as { id: number };
    for (const [daysAgo, distance, time] of [
      [2, 8, '00:44:00'],
      [4, 5, '00:26:30'],
      [9, 10.5, '00:57:10'],
      [40, 12, '01:06:00'],
    ] as const) {
      await post('/entry', { date: isoDay(daysAgo), distance, time, effort: 5 });
    }
    // A watch's run: map, charts, splits with heart rate and elevation, zones.
    const form = new FormData();
    form.append(
      'file',
      new Blob([realisticFit(2650, { start: new Date(`${TRACKED_DAY}T07:00:00Z`) })]),
      'tempo-from-the-watch.fit',
    );
    const imported = await fetch(`${baseUrl}/api/v1/import`, {
      method: 'POST',
      headers: { Accept: 'application/json', Authorization: `Bearer ${runner.token}` },
      body: form,
    });
    expect(imported.status, await imported.clone().text()).toBe(201);
    const listed = await callApi(baseUrl, 'GET', '/entry', { token: runner.token });
    const tracked = (listed.body.entries as { data: { id: number; has_track: boolean }[] }).data.find(
      (entry) => entry.has_track,
    )!;
    await post('/goals', { period: 'week', metric: 'distance', target: 40 });
    await post('/tokens', { name: 'Watch sync with a long name', scope: 'read' });
    seeded = {
      runner,
      newcomer,
      admin: await apiLogin(baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD),
      runId: run.id,
      trackedRunId: tracked.id,
      shoeId: shoe.id,
    };
    if (process.env.E2E_SCREENSHOTS === '1') {
      shots = await mkdtemp(join(tmpdir(), 'running-times-pages-'));
      console.log(`every page's screenshots: ${shots}`);
    }
  });

  afterAll(async () => {
    await journey?.close();
  });

  /** Every screen of the app with its h1, for whom it is. */
  const screens = (): Array<{
    who: 'visitor' | 'runner' | 'newcomer' | 'admin';
    path: string;
    h1: string | RegExp;
    /** What to do on the screen before it is measured (a preview to open). */
    then?: (page: Page) => Promise<void>;
    /** The screenshot's name when the path alone does not tell. */
    shot?: string;
  }> => [
    { who: 'visitor', path: '/', h1: 'Running Times' },
    { who: 'visitor', path: '/policy', h1: 'Privacy policy' },
    { who: 'visitor', path: '/delete-account', h1: 'Account deletion' },
    { who: 'visitor', path: '/login', h1: 'Login' },
    { who: 'visitor', path: '/register', h1: 'Register' },
    // The screens of mailed links (§21); without a link's token they say where to find it.
    { who: 'visitor', path: '/forgot-password', h1: 'Forgot your password?' },
    { who: 'visitor', path: '/reset-password', h1: 'Choose a new password' },
    { who: 'visitor', path: '/verify-email', h1: 'Confirm your e-mail address' },
    { who: 'visitor', path: '/accept-invitation', h1: 'Create your account' },
    { who: 'visitor', path: '/confirm-email', h1: 'Confirm your new e-mail address' },
    { who: 'visitor', path: '/no/such/page', h1: 'Error 404' },
    { who: 'runner', path: '/dashboard', h1: 'Dashboard' },
    { who: 'runner', path: '/entries', h1: 'Time Entries' },
    { who: 'runner', path: '/entry/new', h1: 'New Entry' },
    { who: 'runner', path: `/entry/${seeded.runId}`, h1: LONG_TITLE },
    { who: 'runner', path: `/entry/${seeded.trackedRunId}`, h1: `Run of ${shownDate(TRACKED_DAY)}`, then: trackDrawn },
    { who: 'runner', path: `/entry/edit/${seeded.runId}`, h1: 'Edit Entry' },
    { who: 'runner', path: '/entry/999999', h1: 'Run not found' },
    { who: 'runner', path: '/report/weekly', h1: 'Weekly Report' },
    { who: 'runner', path: '/insights/records', h1: 'Records' },
    { who: 'runner', path: '/insights/load', h1: 'Training load' },
    { who: 'runner', path: '/insights/year', h1: /^Year \d{4}$/ },
    { who: 'runner', path: '/goals', h1: 'Goals' },
    { who: 'runner', path: '/shoes', h1: 'Shoes' },
    { who: 'runner', path: `/shoes/${seeded.shoeId}`, h1: 'Trail shoes with a long name' },
    { who: 'runner', path: '/routes', h1: 'Routes' },
    { who: 'runner', path: '/segments', h1: 'Segments' },
    { who: 'runner', path: '/data', h1: 'Your data' },
    { who: 'runner', path: '/data', h1: 'Your data', then: previewImport, shot: 'data-preview' },
    { who: 'runner', path: '/profile', h1: 'My Profile' },
    { who: 'runner', path: '/delete-account', h1: 'Account deletion' },
    { who: 'newcomer', path: '/dashboard', h1: 'Dashboard' },
    { who: 'newcomer', path: '/entries', h1: 'Time Entries' },
    { who: 'newcomer', path: '/report/weekly', h1: 'Weekly Report' },
    { who: 'newcomer', path: '/insights/records', h1: 'Records' },
    { who: 'newcomer', path: '/insights/load', h1: 'Training load' },
    { who: 'newcomer', path: '/insights/year', h1: /^Year \d{4}$/ },
    { who: 'newcomer', path: '/goals', h1: 'Goals' },
    { who: 'newcomer', path: '/shoes', h1: 'Shoes' },
    { who: 'newcomer', path: '/routes', h1: 'Routes' },
    { who: 'newcomer', path: '/segments', h1: 'Segments' },
    { who: 'admin', path: '/admin/dashboard', h1: 'Admin Dashboard' },
    { who: 'admin', path: '/admin/users', h1: 'Users' },
    { who: 'admin', path: `/admin/user/show/${seeded.runner.id}`, h1: 'User: Pat Pages' },
    { who: 'admin', path: `/admin/user/edit/${seeded.runner.id}`, h1: /Edit User/ },
    { who: 'admin', path: '/admin/entries', h1: 'All Entries' },
    { who: 'admin', path: `/admin/entry/${seeded.runId}`, h1: LONG_TITLE },
    {
      who: 'admin',
      path: `/admin/entry/${seeded.trackedRunId}`,
      h1: `Run of ${shownDate(TRACKED_DAY)}`,
      then: trackDrawn,
    },
    { who: 'admin', path: `/admin/entry/edit/${seeded.runId}`, h1: 'Edit Entry' },
  ];

  it.each([
    [375, 'light', 'en'],
    [375, 'dark', 'en'],
    [1280, 'light', 'en'],
    [1280, 'dark', 'en'],
    // German's long words (Durchschnittsgeschwindigkeit) on a phone: the browser's language.
    [375, 'light', 'de'],
  ] as const)(
    'at %i px in the %s theme, in %s: axe clean, nothing wider than the screen or cut',
    async (width, scheme, language) => {
      const page = await journey.newPage({
        width,
        height: width === 375 ? 740 : 900,
        ...(language === 'de' ? { locale: 'de-DE' } : {}),
      });
      // Every account keeps the `auto` theme, which follows the system's.
      await page.emulateMedia({ colorScheme: scheme });
      const tokens = {
        visitor: null,
        runner: seeded.runner.token,
        newcomer: seeded.newcomer.token,
        admin: seeded.admin,
      };
      let who: keyof typeof tokens | null = null;
      const problems: string[] = [];
      for (const screen of screens()) {
        if (screen.who !== who) {
          who = screen.who;
          await signIn(page, tokens[who]);
        }
        // In German the headings are German: any h1; the screens' own steps find English labels.
        await open(page, screen.path, language === 'en' ? screen.h1 : /./);
        if (language === 'en') await screen.then?.(page);
        const where = `${screen.who} ${screen.shot ?? screen.path} (${width} px, ${scheme}, ${language})`;
        expect(
          await page.evaluate<string | null>("document.documentElement.getAttribute('data-bs-theme')"),
          where,
        ).toBe(scheme);
        const overflow = await overflowOf(page);
        if (overflow > 0) problems.push(`${where}: ${overflow} px wider than the screen`);
        for (const finding of await hiddenByLayout(page)) problems.push(`${where}: ${finding}`);
        for (const violation of await seriousViolations(page)) problems.push(`${where}: ${violation}`);
        const file = `${screen.who}${(screen.shot ?? screen.path).replace(/[^a-z0-9]+/gi, '-')}-${width}-${scheme}-${language}.png`;
        if (shots !== null) await page.screenshot({ path: join(shots, file), fullPage: true });
      }
      expect(problems).toEqual([]);
      // Forty screens, each scanned and photographed: more than a journey's two minutes on a busy machine.
    },
    480_000,
  );

  it('takes "4,2" in the distance field as 4.2 km, never 42', async () => {
    const page = await journey.newPage();
    await signIn(page, seeded.newcomer.token);
    await open(page, '/entry/new', 'New Entry');
    await page.getByRole('button', { name: 'Today' }).click();
    expect(await page.getByLabel('Date', { exact: true }).inputValue()).toBe(currentDay());
    await page.getByLabel('Distance (km)').fill('4,2');
    await page.getByLabel('Minutes').fill('25');
    await page.getByRole('button', { name: 'Submit' }).click();
    const toast = page.getByRole('status').filter({ hasText: 'New time record was added!' });
    await toast.waitFor();
    // The toast leaves the brand and the menus in view (issue 42).
    const navbar = page.getByRole('navigation', { name: 'Main' });
    const toastBox = (await toast.boundingBox())!;
    for (const part of [
      navbar.getByRole('link', { name: 'Running Times' }),
      navbar.getByRole('link', { name: 'Dashboard' }),
    ]) {
      const box = (await part.boundingBox())!;
      const apart =
        toastBox.x >= box.x + box.width ||
        box.x >= toastBox.x + toastBox.width ||
        toastBox.y >= box.y + box.height ||
        box.y >= toastBox.y + toastBox.height;
      expect(apart, (await part.textContent()) ?? undefined).toBe(true);
    }
    const listed = await callApi(journey.server.baseUrl, 'GET', '/entry', { token: seeded.newcomer.token });
    const runs = (listed.body.entries as { data: { distance: number; time: string }[] }).data;
    expect(runs.map((run) => [run.distance, run.time])).toEqual([[4.2, '00:25:00']]);
  });

  it('shows each run as a card on a phone: date, title, numbers and actions in view, titles wrapped between words', async () => {
    const page = await journey.newPage({ width: 375, height: 740 });
    await signIn(page, seeded.runner.token);
    await open(page, '/entries', 'Time Entries');
    const card = page.getByRole('row', { name: new RegExp(shownDate(isoDay(1))) });
    for (const part of [
      card.getByRole('link', { name: shownDate(isoDay(1)), exact: true }),
      card.getByText(LONG_TITLE),
      card.getByText('01:52:30'),
      card.getByRole('link', { name: `Edit entry of ${shownDate(isoDay(1))}` }),
      card.getByRole('button', { name: `Delete entry of ${shownDate(isoDay(1))}` }),
    ]) {
      const box = await part.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    }
    // A title split letter by letter would be a column a few pixels wide.
    expect((await card.getByText(LONG_TITLE).boundingBox())!.width).toBeGreaterThan(150);
    // The run opens its page.
    await card.getByRole('link', { name: shownDate(isoDay(1)), exact: true }).click();
    await page.getByRole('heading', { level: 1, name: LONG_TITLE }).waitFor();
    await page.getByRole('region', { name: 'Numbers' }).getByText('01:52:30').waitFor();
  });

  it("never splits an e-mail address letter by letter in the admin's users list", async () => {
    for (const width of [375, 1280]) {
      const page = await journey.newPage({ width, height: 800 });
      await signIn(page, seeded.admin);
      await open(page, '/admin/users', 'Users');
      const address = page.getByRole('cell', { name: LONG_EMAIL });
      const box = (await address.boundingBox())!;
      // Letter by letter, the cell would be one character wide and dozens of lines high.
      expect(box.width, `${width} px`).toBeGreaterThan(200);
      expect(box.height, `${width} px`).toBeLessThan(120);
    }
  });

  it("opens this year's grid of days scrolled to today on a phone", async () => {
    const page = await journey.newPage({ width: 375, height: 740 });
    await signIn(page, seeded.runner.token);
    await open(page, '/insights/year', /^Year \d{4}$/);
    const grid = page.getByRole('grid', { name: /day by day$/ });
    await grid.waitFor();
    const today = page.locator(`[data-date="${currentDay()}"]`);
    const [cell, view] = [await today.boundingBox(), await grid.locator('xpath=..').boundingBox()];
    expect(cell).not.toBeNull();
    expect(cell!.x).toBeGreaterThanOrEqual(view!.x);
    expect(cell!.x + cell!.width).toBeLessThanOrEqual(view!.x + view!.width);
  });

  it('deletes an account from the profile once its address is typed, and ends the session', async () => {
    const { baseUrl } = journey.server;
    const leaver = await apiRegister(baseUrl, {
      name: 'Lee Leaving',
      email: 'lee@example.com',
      password: 'lee-password-1',
    });
    const page = await journey.newPage({ width: 375, height: 740 });
    await signIn(page, leaver.token);
    await open(page, '/delete-account', 'Account deletion');
    await page.getByRole('link', { name: 'Delete my account' }).click();
    const section = page.getByRole('region', { name: 'Delete my account' });
    await section.waitFor();
    const button = section.getByRole('button', { name: 'Delete my account' });
    expect(await button.isDisabled()).toBe(true);
    await section.getByLabel('To confirm, type your e-mail').fill('lee@example.com');
    await button.click();
    await page.getByText('Your account was deleted.').waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    // A visitor again: the home page invites to register, and no token is kept.
    await page.getByRole('main').getByRole('link', { name: 'Register' }).waitFor();
    expect(await page.evaluate<string | null>("window.localStorage.getItem('access_token')")).toBeNull();
    const login = await callApi(baseUrl, 'POST', '/auth/login', {
      body: { email: 'lee@example.com', password: 'lee-password-1' },
    });
    expect(login.status).toBe(401);
  });
});
