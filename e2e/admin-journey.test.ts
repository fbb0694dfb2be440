import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  apiAddEntry,
  apiLogin,
  apiRegister,
  callApi,
  isoDay,
  loginViaUi,
  pathOf,
  settled,
  shownDate,
  startJourney,
  type Journey,
} from './support/journey.js';

describe('the admin panel', () => {
  let journey: Journey;
  let adminToken: string;
  let runnerId: number;
  let runnerEntryId: number;
  const runner = { name: 'Bob Stride', email: 'bob@example.com', password: 'bob-password-1' };
  const manager = { name: 'Mia Manager', email: 'mia@example.com', password: 'mia-password-1' };
  const runDay = isoDay(2);

  beforeAll(async () => {
    journey = await startJourney();
    const { baseUrl } = journey.server;
    adminToken = await apiLogin(baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
    const bob = await apiRegister(baseUrl, runner);
    runnerId = bob.id;
    runnerEntryId = await apiAddEntry(baseUrl, bob.token, { date: runDay, distance: 8, time: '00:40:00' });
    await apiAddEntry(baseUrl, bob.token, { date: isoDay(3), distance: 3, time: '00:20:00' });
    // A manager: registered as a user, then promoted by the admin (with the _method override).
    const mia = await apiRegister(baseUrl, manager);
    const promoted = await callApi(baseUrl, 'POST', `/user/${mia.id}`, {
      token: adminToken,
      body: { _method: 'PUT', name: manager.name, email: manager.email, role: 'manager' },
    });
    expect(promoted.status).toBe(200);
  });

  afterAll(async () => {
    await journey?.close();
  });

  describe('as an admin', () => {
    let page: Page;

    beforeAll(async () => {
      page = await journey.newPage();
      await loginViaUi(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    });

    it('opens the admin dashboard from the navbar', async () => {
      await page.getByRole('link', { name: 'Admin Panel' }).click();
      await page.waitForURL('**/admin/dashboard');
      await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
      const users = page.getByRole('region', { name: 'Users Stats' });
      await expect.poll(() => users.textContent()).toMatch(/Total users\s*3/);
      const entries = page.getByRole('region', { name: 'Entries Stats' });
      await expect.poll(() => entries.textContent()).toMatch(/Total entries\s*2/);
      expect(await entries.textContent()).toContain('12.00 km/h');
      // The fastest run links to the admin edit screen, its runner to the user page.
      const fastest = entries.getByRole('link', { name: '12.00 km/h' });
      expect(await fastest.getAttribute('href')).toBe(`/admin/entry/edit/${runnerEntryId}`);
      expect(await entries.getByRole('link', { name: runner.name }).first().getAttribute('href')).toBe(
        `/admin/user/show/${runnerId}`,
      );
    });

    it('searches users and opens one', async () => {
      const adminMenu = page.getByRole('navigation', { name: 'Admin panel' });
      await adminMenu.getByRole('link', { name: 'Users' }).click();
      await page.waitForURL('**/admin/users');
      await page.getByText('Page 1 of 1').waitFor();
      await expect.poll(() => page.getByRole('row').count()).toBe(4);
      await page.getByLabel('Search users by name or e-mail').fill('BOB');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(() => pathOf(page)).toBe('/admin/users?query=BOB');
      await expect.poll(() => page.getByRole('row').count()).toBe(2);
      const row = page.getByRole('row', { name: new RegExp(runner.name) });
      expect(await row.textContent()).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}/);
      await row.getByRole('link', { name: runner.name, exact: true }).click();
      await page.waitForURL(`**/admin/user/show/${runnerId}`);
      await page.getByRole('heading', { level: 1, name: `User: ${runner.name}` }).waitFor();
      const info = page.getByRole('region', { name: 'User information' });
      expect(await info.textContent()).toContain(runner.email);
    });

    it('changes the role on the user edit screen', async () => {
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await page.waitForURL(`**/admin/user/edit/${runnerId}`);
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(runner.name);
      await page.getByLabel('Role').selectOption('manager');
      await page.getByRole('button', { name: 'Update' }).click();
      await page.getByText('User was updated!').waitFor();
      await page.waitForURL(`**/admin/user/show/${runnerId}`);
      await expect
        .poll(() => page.getByRole('region', { name: 'User information' }).textContent())
        .toContain('Manager');
      // Back to a plain user, for the rest of the journey.
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await page.getByLabel('Role').selectOption('user');
      await page.getByRole('button', { name: 'Update' }).click();
      await page.waitForURL(`**/admin/user/show/${runnerId}`);
      await expect
        .poll(() => page.getByRole('region', { name: 'User information' }).textContent())
        .toMatch(/Role\s*User/);
    });

    it('has no role selector for its own account', async () => {
      const me = await callApi(journey.server.baseUrl, 'GET', '/user/me', { token: adminToken });
      await page.goto(`/admin/user/edit/${String(me.body.id)}`);
      await page.getByLabel('Name', { exact: true }).waitFor();
      expect(await page.getByLabel('Role').count()).toBe(0);
    });

    it('lists everyone\u2019s entries with their runners and edits one', async () => {
      await page.goto('/admin/dashboard');
      await page.getByRole('navigation', { name: 'Admin panel' }).getByRole('link', { name: 'Entries' }).click();
      await page.waitForURL('**/admin/entries');
      await page.getByRole('columnheader', { name: 'User' }).waitFor();
      const row = page.getByRole('row', { name: new RegExp(shownDate(runDay)) });
      expect(await row.getByRole('link', { name: runner.name }).getAttribute('href')).toBe(
        `/admin/user/show/${runnerId}`,
      );

      await page.getByLabel('From', { exact: true }).fill(runDay);
      await page.getByRole('button', { name: 'Filter' }).click();
      await expect.poll(() => page.getByRole('row').count()).toBe(2);

      // The screen's shoes answer only after the change is typed (as on a slow connection): the
      // change must survive them.
      let answerShoes = () => {};
      const shoesHeld = new Promise<void>((resolve) => (answerShoes = resolve));
      await page.route('**/api/v1/shoes', async (route) => {
        await shoesHeld;
        await route.continue();
      });
      await row.getByRole('link', { name: `Edit entry of ${shownDate(runDay)}` }).click();
      await page.waitForURL(`**/admin/entry/edit/${runnerEntryId}`);
      await page.getByRole('heading', { level: 1, name: 'Edit Entry' }).waitFor();
      await expect.poll(() => page.getByLabel('Minutes').inputValue()).toBe('40');
      await page.getByLabel('Minutes').fill('32');
      const shoesAnswered = page.waitForResponse('**/api/v1/shoes');
      answerShoes();
      await shoesAnswered;
      await page.unroute('**/api/v1/shoes');
      expect(await page.getByLabel('Minutes').inputValue()).toBe('32');
      await page.getByRole('button', { name: 'Update' }).click();
      await page.getByText('Time record was updated!').waitFor();
      await page.waitForURL('**/admin/entries?dateFrom=*');
      await expect.poll(() => row.textContent()).toContain('00:32:00');
      await expect.poll(() => row.textContent()).toContain('15.00');
    });

    it('deletes a user after confirming', async () => {
      await settled(page);
      const extra = await apiRegister(journey.server.baseUrl, {
        name: 'Temp Person',
        email: 'temp@example.com',
        password: 'temp-password-1',
      });
      await page.goto('/admin/users?query=temp');
      await page.getByRole('button', { name: 'Delete Temp Person' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByText('User was deleted!').waitFor();
      await page.getByText('No users found.').waitFor();
      const gone = await callApi(journey.server.baseUrl, 'GET', `/user/${extra.id}`, { token: adminToken });
      expect(gone.status).toBe(404);
    });
  });

  describe('as a manager', () => {
    let page: Page;

    beforeAll(async () => {
      page = await journey.newPage();
      await loginViaUi(page, manager.email, manager.password);
    });

    it('sees the admin panel without its Entries item', async () => {
      await settled(page);
      await page.getByRole('link', { name: 'Admin Panel' }).click();
      await page.waitForURL('**/admin/dashboard');
      const adminMenu = page.getByRole('navigation', { name: 'Admin panel' });
      await adminMenu.getByRole('link', { name: 'Users' }).waitFor();
      expect(await adminMenu.getByRole('link', { name: 'Entries' }).count()).toBe(0);
      // Other runners' runs are shown, not linked to an edit screen the manager cannot use.
      const entries = page.getByRole('region', { name: 'Entries Stats' });
      await expect.poll(() => entries.textContent()).toContain('15.00 km/h');
      expect(await entries.getByRole('link', { name: '15.00 km/h' }).count()).toBe(0);
    });

    it('cannot open everyone\u2019s entries and lands on the admin dashboard', async () => {
      await page.goto('/admin/entries');
      await page.waitForURL('**/admin/dashboard');
      await page.goto(`/admin/entry/edit/${runnerEntryId}`);
      await page.waitForURL('**/admin/dashboard');
      expect(pathOf(page)).toBe('/admin/dashboard');
    });

    it('edits a plain user but is not offered the role selector', async () => {
      await page.goto(`/admin/user/edit/${runnerId}`);
      await page.getByLabel('Name', { exact: true }).waitFor();
      expect(await page.getByLabel('Role').count()).toBe(0);
      await page.getByLabel('Name', { exact: true }).fill('Bob Quick');
      await page.getByRole('button', { name: 'Update' }).click();
      await page.getByText('User was updated!').waitFor();
    });
  });
});
