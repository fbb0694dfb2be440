/**
 * Hostile text in the browser: a runner whose name and e-mail carry `<script>` and
 * `<img onerror>` markup, seen by the runner and by an admin on every screen that shows
 * them, and the same markup typed into the search box. It renders as text: no script
 * runs, no element is created from it, no dialog opens.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  apiAddEntry,
  apiRegister,
  isoDay,
  loginViaUi,
  settled,
  startJourney,
  type Journey,
} from './support/journey.js';

const NAME = `<script>window.__pwned = 'script'</script><img src=x onerror="window.__pwned = 'img'">`;
// Markup cannot be in an e-mail address (refused since it is no address); entities and quotes can.
const EMAIL = `o'neil&lt{svg}&gt+x@example.com`;
const PASSWORD = 'hostile-password-1';
const SEARCH = `<img src=x onerror="window.__pwned = 'search'">`;

describe('hostile text renders as text', () => {
  let journey: Journey;
  let userId: number;
  const problems: string[] = [];

  /** A page that records every sign of markup coming alive. */
  async function watchedPage(): Promise<Page> {
    const page = await journey.newPage();
    page.on('dialog', (dialog) => {
      problems.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Refused to|Content Security Policy/i.test(message.text())) {
        problems.push(`csp: ${message.text()}`);
      }
    });
    return page;
  }

  async function expectInert(page: Page): Promise<void> {
    expect(await page.evaluate<string>('typeof window.__pwned')).toBe('undefined');
    // Nothing was built from the markup: no image with src "x", no svg with an onload.
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.locator('svg[onload]').count()).toBe(0);
    expect(await page.locator('script:not([src])').count()).toBe(0);
    expect(problems).toEqual([]);
  }

  beforeAll(async () => {
    journey = await startJourney();
    const runner = await apiRegister(journey.server.baseUrl, { name: NAME, email: EMAIL, password: PASSWORD });
    userId = runner.id;
    await apiAddEntry(journey.server.baseUrl, runner.token, { date: isoDay(1), distance: 42.195, time: '03:00:00' });
  });

  afterAll(async () => {
    await journey?.close();
  });

  it('the runner signs in with the hostile e-mail and sees the name as text in the menu and the profile', async () => {
    const page = await watchedPage();
    await loginViaUi(page, EMAIL, PASSWORD);
    await settled(page);
    const menu = page.getByRole('button', { name: NAME });
    await menu.waitFor();
    expect(await menu.textContent()).toContain(NAME);
    await expectInert(page);

    await menu.click();
    await page
      .getByRole('link', { name: /profile/i })
      .first()
      .click();
    await page.getByLabel('Name', { exact: true }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(NAME);
    expect(
      await page
        .getByLabel(/e-?mail/i)
        .first()
        .inputValue(),
    ).toBe(EMAIL);
    await expectInert(page);
  });

  it('an admin sees the name and e-mail as text on the dashboard, the users list, the user page and the entries', async () => {
    const page = await watchedPage();
    await loginViaUi(page, ADMIN_EMAIL, ADMIN_PASSWORD);

    await page.goto('/admin/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
    const entries = page.getByRole('region', { name: 'Entries Stats' });
    await expect.poll(() => entries.textContent()).toContain(NAME);
    await expectInert(page);

    await page.goto('/admin/users');
    const row = page.getByRole('row', { name: new RegExp(EMAIL.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')) });
    await row.waitFor();
    expect(await row.textContent()).toContain(NAME);
    await expectInert(page);

    await page.goto(`/admin/user/show/${userId}`);
    await page.getByRole('heading', { level: 1, name: `User: ${NAME}` }).waitFor();
    expect(await page.getByRole('region', { name: 'User information' }).textContent()).toContain(EMAIL);
    await expectInert(page);

    await page.goto('/admin/entries');
    await page.getByRole('columnheader', { name: 'User' }).waitFor();
    await expect.poll(() => page.getByRole('link', { name: NAME }).count()).toBeGreaterThan(0);
    await expectInert(page);
  });

  it('markup typed into the users search is sent as text and shown as text', async () => {
    const page = await watchedPage();
    await loginViaUi(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto('/admin/users');
    await page.getByLabel('Search users by name or e-mail').fill(SEARCH);
    await page.getByRole('button', { name: 'Search' }).click();
    await settled(page);
    expect(await page.getByLabel('Search users by name or e-mail').inputValue()).toBe(SEARCH);
    await expectInert(page);

    // And the part of the name that matches finds the runner.
    await page.getByLabel('Search users by name or e-mail').fill('<script>');
    await page.getByRole('button', { name: 'Search' }).click();
    await settled(page);
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await expectInert(page);
  });
});
