import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDay, pathOf, settled, shownDate, startJourney, type Journey } from './support/journey.js';

/** A runner's whole day with the app, one step after the other on one page. */
describe('a runner', () => {
  let journey: Journey;
  let page: Page;
  const pageErrors: string[] = [];
  const runner = { name: 'Rita Runner', email: 'rita@example.com', password: 'rita-password-1' };
  const [dayA, dayB, dayC] = [isoDay(1), isoDay(2), isoDay(3)];

  beforeAll(async () => {
    journey = await startJourney();
    page = await journey.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Content-Security-Policy refusals (inline styles or scripts, other origins) show up as console errors.
    page.on('console', (message) => {
      if (message.type() === 'error' && /Refused to|Content Security Policy/i.test(message.text())) {
        pageErrors.push(message.text());
      }
    });
  });

  afterAll(async () => {
    await journey?.close();
  });

  it('registers and lands on the dashboard', async () => {
    await page.goto('/');
    await page.getByRole('main').getByRole('link', { name: 'Register' }).click();
    await page.waitForURL('**/register');
    await page.getByLabel('Name', { exact: true }).fill(runner.name);
    await page.getByLabel('E-Mail Address').fill(runner.email);
    await page.getByLabel('Password', { exact: true }).fill(runner.password);
    await page.getByLabel('Confirm Password').fill(runner.password);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
    await expect.poll(() => page.getByRole('button', { name: runner.name }).isVisible()).toBe(true);
  });

  it('adds a run on the dashboard, which then counts it', async () => {
    await settled(page);
    const form = page.getByRole('region', { name: 'Add new Time Record' });
    await form.getByLabel('Date').fill(dayA);
    await form.getByLabel('Distance (km)').fill('10');
    await form.getByLabel('Minutes').fill('50');
    await form.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('New time record was added!').waitFor();
    // The form starts over and the dashboard reloads with the new best results.
    await expect.poll(() => form.getByLabel('Distance (km)').inputValue()).toBe('');
    await expect.poll(() => form.getByLabel('Minutes').inputValue()).toBe('00');
    const best = page.getByRole('region', { name: 'Best results' });
    await expect.poll(() => best.textContent()).toContain('12.00 km/h');
    await expect.poll(() => best.textContent()).toContain('00:50:00');
    await page.locator('canvas').first().waitFor();
  });

  it('sees the run in Time Entries', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Entries' }).click();
    await page.waitForURL('**/entries');
    await page.getByRole('heading', { level: 1, name: 'Time Entries' }).waitFor();
    await page.getByText('Page 1 of 1').waitFor();
    const row = page.getByRole('row', { name: new RegExp(shownDate(dayA)) });
    await expect.poll(() => row.textContent()).toContain('00:50:00');
    expect(await row.textContent()).toContain('12.00');
    expect(await row.textContent()).toContain('5.00');
  });

  it('adds two more runs on the New Entry screen and comes back', async () => {
    for (const [day, distance, hours, minutes, seconds] of [
      [dayB, '5.5', '0', '30', '5'],
      [dayC, '21.1', '2', '0', '0'],
    ] as const) {
      await page.getByRole('link', { name: 'Add new Entry' }).click();
      await page.waitForURL('**/entry/new');
      await page.getByRole('heading', { level: 1, name: 'New Entry' }).waitFor();
      await page.getByLabel('Date').fill(day);
      await page.getByLabel('Distance (km)').fill(distance);
      await page.getByLabel('Hours').fill(hours);
      await page.getByLabel('Minutes').fill(minutes);
      await page.getByLabel('Seconds').fill(seconds);
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('New time record was added!').first().waitFor();
      await page.waitForURL('**/entries');
    }
    const rowB = page.getByRole('row', { name: new RegExp(shownDate(dayB)) });
    await expect.poll(() => rowB.textContent()).toContain('00:30:05');
    await expect.poll(() => page.getByRole('row').count()).toBe(4);
  });

  it('edits a run: the form is prefilled with zero-padded time', async () => {
    await page.getByRole('link', { name: `Edit entry of ${shownDate(dayB)}` }).click();
    await page.waitForURL('**/entry/edit/*');
    await page.getByRole('heading', { level: 1, name: 'Edit Entry' }).waitFor();
    await expect.poll(() => page.getByLabel('Date').inputValue()).toBe(dayB);
    expect(await page.getByLabel('Distance (km)').inputValue()).toBe('5.5');
    expect(await page.getByLabel('Hours').inputValue()).toBe('00');
    expect(await page.getByLabel('Minutes').inputValue()).toBe('30');
    expect(await page.getByLabel('Seconds').inputValue()).toBe('05');
    await page.getByLabel('Distance (km)').fill('6');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Time record was updated!').waitFor();
    await page.waitForURL('**/entries');
    const row = page.getByRole('row', { name: new RegExp(shownDate(dayB)) });
    await expect.poll(() => row.textContent()).toMatch(/^.*6.*00:30:05/);
  });

  it('filters by date and clears the filter', async () => {
    await page.getByLabel('From', { exact: true }).fill(dayB);
    await page.getByLabel('To', { exact: true }).fill(dayB);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => pathOf(page)).toBe(`/entries?dateFrom=${dayB}&dateTo=${dayB}`);
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => pathOf(page)).toBe('/entries');
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe('');
    await expect.poll(() => page.getByRole('row').count()).toBe(4);
  });

  it('deletes a run after confirming', async () => {
    await page.getByRole('button', { name: `Delete entry of ${shownDate(dayC)}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('row').count()).toBe(4);

    await page.getByRole('button', { name: `Delete entry of ${shownDate(dayC)}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Entry was deleted!').waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBe(3);
    expect(await page.getByRole('row', { name: new RegExp(shownDate(dayC)) }).count()).toBe(0);
  });

  it('reads the weekly report of the current year', async () => {
    const main = page.getByRole('navigation', { name: 'Main' });
    await main.getByRole('button', { name: 'Reports' }).click();
    await main.getByRole('link', { name: 'Weekly' }).click();
    await page.waitForURL('**/report/weekly');
    await page.getByRole('heading', { level: 1, name: 'Weekly Report' }).waitFor();
    const year = new Date().getUTCFullYear();
    const table = page.getByRole('table');
    await expect.poll(() => table.textContent()).toContain('Avg. Speed (km/h)');
    // The runs of the last days fall in this year unless the year has just begun.
    if (dayB.startsWith(String(year))) {
      await expect.poll(() => table.textContent()).toMatch(/week \d+/);
    }
    await page.locator('canvas').first().waitFor();
    expect(await page.getByRole('button', { name: `Year ${year}` }).getAttribute('aria-current')).toBe('page');
  });

  it('changes name and time zone on the profile', async () => {
    await page.getByRole('button', { name: runner.name }).click();
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');
    await page.getByRole('heading', { level: 1, name: 'My Profile' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(runner.name);
    expect(await page.getByLabel('E-Mail Address').inputValue()).toBe(runner.email);
    await page.getByLabel('Name', { exact: true }).fill('Rita Fast');
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Your profile was updated!').waitFor();
    await page.getByRole('button', { name: 'Rita Fast' }).waitFor();
    await page.reload();
    await expect.poll(() => page.getByLabel('Time zone').inputValue()).toBe('Europe/Berlin');
  });

  it('logs out and is a guest again', async () => {
    await page.getByRole('button', { name: 'Rita Fast' }).click();
    await page.getByRole('link', { name: 'Logout' }).click();
    await expect.poll(() => pathOf(page)).toBe('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).waitFor();
    expect(await page.evaluate<string | null>("window.localStorage.getItem('access_token')")).toBeNull();
    await page.goto('/entries');
    await page.waitForURL('**/login');
  });

  it('met no script error and no Content-Security-Policy refusal on the way', () => {
    expect(pageErrors).toEqual([]);
  });
});
