/**
 * Preferences and personal API tokens in the browser (CONTRACT.md §11): a runner switches to
 * miles and adds a run in miles, which the API keeps in kilometres (and an unchanged edit does
 * not move); dark mode applies before the app loads, follows the system in auto, and is axe
 * clean; a write token created in the profile posts a run from outside that then shows in the list.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.js';
import { watchErrors } from './support/browser.js';
import {
  apiAddEntry,
  apiRegister,
  callApi,
  isoDay,
  loginViaUi,
  settled,
  startJourney,
  type Journey,
} from './support/journey.js';

const theme = (page: Page) => page.evaluate<string | null>("document.documentElement.getAttribute('data-bs-theme')");

async function savePreferences(page: Page, choices: { units?: string; theme?: string }): Promise<void> {
  await page.goto('/profile');
  await page.getByRole('heading', { level: 1, name: 'My Profile' }).waitFor();
  if (choices.units) await page.getByLabel('Units').selectOption(choices.units);
  if (choices.theme) await page.getByLabel('Theme').selectOption(choices.theme);
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await page.getByText('Your preferences were saved!').waitFor();
  await settled(page);
}

describe('preferences and API tokens', () => {
  let journey: Journey;
  let token: string;
  const email = 'mia@example.com';
  const password = 'mia-password-1';

  beforeAll(async () => {
    journey = await startJourney();
    token = (await apiRegister(journey.server.baseUrl, { name: 'Mia Miles', email, password })).token;
    await apiAddEntry(journey.server.baseUrl, token, { date: isoDay(3), distance: 10, time: '00:50:00' });
  });

  afterAll(async () => {
    await journey?.close();
  });

  it('switches to miles, adds a run in miles, and the API keeps kilometres', async () => {
    const page = await journey.newPage();
    const errors = watchErrors(page);
    await loginViaUi(page, email, password);
    await savePreferences(page, { units: 'mi' });

    await page.goto('/entry/new');
    await page.getByLabel('Date').fill(isoDay(0));
    await page.getByLabel('Distance (mi)').fill('5');
    await page.getByLabel('Minutes').fill('45');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL('**/entries');

    const list = await callApi(journey.server.baseUrl, 'GET', '/entry', { token });
    const runs = (list.body.entries as { data: Array<{ id: number; date: string; distance: number }> }).data;
    const added = runs.find((run) => run.date === isoDay(0));
    expect(added?.distance).toBe(8.047);
    const tenK = runs.find((run) => run.date === isoDay(3));
    expect(tenK?.distance).toBe(10);

    // The list shows miles; the 10 km run is 6.21 mi.
    await page.getByRole('columnheader', { name: 'Distance (mi)' }).waitFor();
    await page.getByRole('cell', { name: '5.00', exact: true }).waitFor();
    await page.getByRole('cell', { name: '6.21', exact: true }).first().waitFor();

    // Saved again without a change, the 10 km run stays 10 km.
    await page.goto(`/entry/edit/${tenK?.id}`);
    expect(await page.getByLabel('Distance (mi)').inputValue()).toBe('6.21');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Time record was updated!').waitFor();
    const again = await callApi(journey.server.baseUrl, 'GET', `/entry/${tenK?.id}`, { token });
    expect((again.body.entry as { distance: number }).distance).toBe(10);

    await page.goto('/dashboard');
    await page.getByText('mph').first().waitFor();
    await page.getByText('min/mi').first().waitFor();
    expect(errors).toEqual([]);
  });

  it('shows dark mode before the app loads, follows the system in auto, and is axe clean in both', async () => {
    const page = await journey.newPage({ width: 375, height: 740 });
    const errors = watchErrors(page);
    await loginViaUi(page, email, password);
    await savePreferences(page, { theme: 'dark' });
    expect(await theme(page)).toBe('dark');

    for (const [path, heading] of [
      ['/profile', 'My Profile'],
      ['/dashboard', 'Dashboard'],
      ['/entries', 'Time Entries'],
      ['/report/weekly', /Weekly/],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      expect(await theme(page), path).toBe('dark');
      expect(await seriousViolations(page), `${path} in dark`).toEqual([]);
    }

    // No flash: with the app's scripts held back, the page is already dark.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/dashboard');
    expect(await theme(page)).toBe('dark');
    await page.unroute('**/assets/*.js');

    // Auto follows the system, live.
    await page.emulateMedia({ colorScheme: 'dark' });
    await savePreferences(page, { theme: 'auto' });
    expect(await theme(page)).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => theme(page)).toBe('light');
    expect(await seriousViolations(page), '/profile in light').toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => theme(page)).toBe('dark');
    expect(errors).toEqual([]);
  });

  it('creates a write token, posts a run with it from outside, and the run shows in the list', async () => {
    const page = await journey.newPage();
    await loginViaUi(page, email, password);
    await page.goto('/profile');
    await page.getByLabel('Token name').fill('Watch sync');
    await page.getByLabel('Access').selectOption('write');
    await page.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByLabel('New token');
    await shown.waitFor();
    const plain = await shown.inputValue();
    expect(plain).toMatch(/^rt_/);
    await page.getByRole('cell', { name: 'Watch sync', exact: true }).waitFor();
    expect(await seriousViolations(page), '/profile with a new token').toEqual([]);

    const posted = await callApi(journey.server.baseUrl, 'POST', '/entry', {
      token: plain,
      body: { date: isoDay(1), distance: 21.098, time: '01:45:00' },
    });
    expect(posted.status).toBe(201);
    // Tokens are managed by a signed-in session only.
    expect((await callApi(journey.server.baseUrl, 'GET', '/tokens', { token: plain })).status).toBe(403);

    await page.goto('/entries');
    // The runner shows miles (from the first journey): 21.098 km is 13.11 mi.
    await page.getByRole('cell', { name: '13.11', exact: true }).waitFor();

    // Its last use shows in the profile; revoking it stops it.
    await page.goto('/profile');
    const row = page.getByRole('row', { name: /Watch sync/ });
    await expect.poll(() => row.getByRole('cell').nth(3).textContent()).not.toBe('Never');
    await page.getByRole('button', { name: 'Revoke the token Watch sync' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('You have no API tokens.').waitFor();
    expect((await callApi(journey.server.baseUrl, 'GET', '/entry', { token: plain })).status).toBe(401);
  });
});
