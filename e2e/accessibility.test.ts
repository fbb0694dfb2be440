import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  apiAddEntry,
  apiLogin,
  apiRegister,
  isoDay,
  loginViaUi,
  settled,
  startJourney,
  type Journey,
} from './support/journey.js';
import { seriousViolations } from './support/axe.js';

/** Opens a path and waits for its h1, so the scan sees the finished screen. */
async function open(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(path);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await settled(page);
}

describe('accessibility (axe): no serious or critical violations', () => {
  let journey: Journey;
  let runnerEntryId: number;
  let runnerId: number;

  beforeAll(async () => {
    journey = await startJourney();
    const { baseUrl } = journey.server;
    const runner = await apiRegister(baseUrl, {
      name: 'Ann Axe',
      email: 'ann@example.com',
      password: 'ann-password-1',
    });
    runnerId = runner.id;
    runnerEntryId = await apiAddEntry(baseUrl, runner.token, { date: isoDay(1), distance: 7.5, time: '00:41:10' });
    await apiAddEntry(baseUrl, runner.token, { date: isoDay(2), distance: 12, time: '01:05:00' });
    await apiLogin(baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  });

  afterAll(async () => {
    await journey?.close();
  });

  it('on the guest pages', async () => {
    const page = await journey.newPage();
    const pages: Array<[string, string | RegExp]> = [
      ['/', 'Running Times'],
      ['/policy', 'Privacy policy'],
      ['/delete-account', 'Account deletion'],
      ['/login', 'Login'],
      ['/register', 'Register'],
      ['/no/such/page', 'Error 404'],
    ];
    for (const [path, heading] of pages) {
      await open(page, path, heading);
      expect(await seriousViolations(page), path).toEqual([]);
    }
    // The login screen with its error banner and field errors.
    await open(page, '/login', 'Login');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('The email field is required.').waitFor();
    expect(await seriousViolations(page), '/login with errors').toEqual([]);
  });

  it('on the runner\u2019s pages', async () => {
    const page = await journey.newPage();
    await loginViaUi(page, 'ann@example.com', 'ann-password-1');
    const pages: Array<[string, string]> = [
      ['/dashboard', 'Dashboard'],
      ['/entries', 'Time Entries'],
      ['/entry/new', 'New Entry'],
      [`/entry/edit/${runnerEntryId}`, 'Edit Entry'],
      ['/report/weekly', 'Weekly Report'],
      ['/profile', 'My Profile'],
    ];
    for (const [path, heading] of pages) {
      await open(page, path, heading);
      if (path === '/dashboard' || path === '/report/weekly') await page.locator('canvas').first().waitFor();
      expect(await seriousViolations(page), path).toEqual([]);
    }
    // An open dropdown, the delete confirmation and a form with server errors.
    await open(page, '/entries', 'Time Entries');
    await page.getByRole('button', { name: 'Reports' }).click();
    expect(await seriousViolations(page), 'open Reports menu').toEqual([]);
    await page.keyboard.press('Escape');
    await page
      .getByRole('button', { name: /^Delete entry of/ })
      .first()
      .click();
    await page.getByRole('dialog').waitFor();
    expect(await seriousViolations(page), 'delete confirmation').toEqual([]);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await open(page, '/entry/new', 'New Entry');
    // A new run starts at today (decision 039): emptied, the date is an error again.
    await page.getByLabel('Date').fill('');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('The date field is required.').waitFor();
    expect(await seriousViolations(page), '/entry/new with errors').toEqual([]);
  });

  it('on the admin pages', async () => {
    const page = await journey.newPage();
    await loginViaUi(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    const pages: Array<[string, string | RegExp]> = [
      ['/admin/dashboard', 'Admin Dashboard'],
      ['/admin/users', 'Users'],
      [`/admin/user/show/${runnerId}`, 'User: Ann Axe'],
      [`/admin/user/edit/${runnerId}`, /Edit User/],
      ['/admin/entries', 'All Entries'],
      [`/admin/entry/edit/${runnerEntryId}`, 'Edit Entry'],
    ];
    for (const [path, heading] of pages) {
      await open(page, path, heading);
      expect(await seriousViolations(page), path).toEqual([]);
    }
  });

  it('on a phone-sized screen with the menu open', async () => {
    const page = await journey.newPage({ width: 375, height: 740 });
    await loginViaUi(page, 'ann@example.com', 'ann-password-1');
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Entries' }).waitFor();
    expect(await seriousViolations(page), 'phone dashboard').toEqual([]);
    // Every screen fits 375 px: wide tables scroll inside their .table-responsive box.
    for (const [path, heading] of [
      ['/dashboard', 'Dashboard'],
      ['/entries', 'Time Entries'],
      [`/entry/edit/${runnerEntryId}`, 'Edit Entry'],
      ['/report/weekly', 'Weekly Report'],
      ['/profile', 'My Profile'],
    ] as const) {
      await open(page, path, heading);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});
