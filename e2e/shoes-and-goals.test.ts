/**
 * Shoes and goals in the browser (CONTRACT.md §11): retiring a shoe from the keyboard takes it
 * out of the new-run form; goals are set and shown with their progress; both screens are axe
 * clean and fit a 375 px phone.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, isoDay, loginViaUi, settled, startJourney, apiRegister, type Journey } from './support/journey.js';
import { seriousViolations } from './support/axe.js';
import { watchErrors } from './support/browser.js';

const overflow = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

describe('shoes and goals', () => {
  let journey: Journey;
  let token: string;
  const email = 'sam@example.com';
  const password = 'sam-password-1';

  beforeAll(async () => {
    journey = await startJourney();
    const { baseUrl } = journey.server;
    token = (await apiRegister(baseUrl, { name: 'Sam Shoes', email, password })).token;
    const old = await callApi(baseUrl, 'POST', '/shoes', {
      token,
      body: { name: 'Old pair', brand: 'Brooks', limit_km: 10, is_default: true },
    });
    expect(old.status).toBe(201);
    expect((await callApi(baseUrl, 'POST', '/shoes', { token, body: { name: 'Daily' } })).status).toBe(201);
    // Without shoe_id the run gets the default shoe, which passes its 10 km limit.
    const run = await callApi(baseUrl, 'POST', '/entry', {
      token,
      body: { date: isoDay(0), distance: 12, time: '01:00:00' },
    });
    expect(run.status).toBe(201);
  });

  afterAll(async () => {
    await journey?.close();
  });

  it('retires a shoe by keyboard, and the new-run form no longer offers it', async () => {
    const page = await journey.newPage({ width: 375, height: 740 });
    const errors = watchErrors(page);
    await loginViaUi(page, email, password);
    // The dashboard warns about the shoe past its limit.
    await page.getByText('Old pair has run 12 km, past its 10 km limit.').waitFor();

    await page.goto('/entry/new');
    const shoe = page.getByLabel('Shoe');
    await expect.poll(() => shoe.locator('option').allTextContents()).toEqual(['No shoe', 'Old pair', 'Daily']);
    expect(await shoe.inputValue()).not.toBe('');

    await page.goto('/shoes');
    await page.getByRole('heading', { level: 1, name: 'Shoes' }).waitFor();
    await page.getByRole('progressbar', { name: 'Old pair distance' }).waitFor();
    expect(await seriousViolations(page), '/shoes').toEqual([]);
    expect(await overflow(page), '/shoes').toBeLessThanOrEqual(0);
    const retire = page.getByRole('button', { name: 'Retire Old pair' });
    await retire.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Unretire Old pair' }).waitFor();
    await page.getByText('Retired', { exact: true }).waitFor();

    await page.goto('/entry/new');
    await expect.poll(() => page.getByLabel('Shoe').locator('option').allTextContents()).toEqual(['No shoe', 'Daily']);
    expect(await page.getByLabel('Shoe').inputValue()).toBe('');
    // The dashboard's warning is only for shoes in use.
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 2, name: 'Goals' }).waitFor();
    await settled(page);
    expect(await page.getByText('past its 10 km limit').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('sets a goal by keyboard and shows its progress on the dashboard', async () => {
    const page = await journey.newPage({ width: 375, height: 740 });
    await loginViaUi(page, email, password);
    await page.goto('/goals');
    await page.getByRole('heading', { level: 1, name: 'Goals' }).waitFor();
    await page.getByText('No goals yet. Add one below.').waitFor();
    expect(await seriousViolations(page), '/goals empty').toEqual([]);

    await page.getByLabel('Period').focus();
    await page.keyboard.press('Tab'); // Measure: distance
    await page.keyboard.press('Tab');
    await page.keyboard.type('48');
    await page.keyboard.press('Enter');
    const bar = page.getByRole('progressbar', { name: 'Weekly distance: 48 km' });
    await bar.waitFor();
    expect(await bar.getAttribute('aria-valuenow')).toBe('25');
    // The runner's first run is today: no earlier week to show.
    await page.getByText('No earlier weeks yet: the history starts with the week of your first run.').waitFor();
    expect(await seriousViolations(page), '/goals').toEqual([]);
    expect(await overflow(page), '/goals').toBeLessThanOrEqual(0);

    await page.goto('/dashboard');
    await page.getByRole('progressbar', { name: 'Weekly distance: 48 km' }).waitFor();
    await page.getByText(/36 km to go by/).waitFor();
    expect(await seriousViolations(page), '/dashboard').toEqual([]);
    expect(await overflow(page), '/dashboard').toBeLessThanOrEqual(0);

    // The entry form's More section opens from the keyboard too.
    await page.goto('/entry/new');
    const more = page.getByText(/^More/);
    await more.focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Title').waitFor({ state: 'visible' });
    expect(await seriousViolations(page), '/entry/new').toEqual([]);
  });
});
