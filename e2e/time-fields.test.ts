import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiRegister,
  callApi,
  isoDay,
  loginViaUi,
  settled,
  shownDate,
  startJourney,
  type Journey,
} from './support/journey.js';

/**
 * The time fields hold "00" and take two characters: after a click or a tap, what is typed must
 * replace that value, not be dropped at the end of a full field.
 */
describe('the time fields of a run', () => {
  let journey: Journey;
  const runner = { name: 'Tim Typer', email: 'tim@example.com', password: 'tim-password-1' };
  let token = '';

  beforeAll(async () => {
    journey = await startJourney();
    ({ token } = await apiRegister(journey.server.baseUrl, runner));
  });

  afterAll(async () => {
    await journey?.close();
  });

  /** Clicks (or taps) each time field and types its part, as a runner would. */
  async function typeTime(scope: Page | Locator, parts: [string, string, string], how: 'click' | 'tap') {
    for (const [label, typed] of [
      ['Hours', parts[0]],
      ['Minutes', parts[1]],
      ['Seconds', parts[2]],
    ] as const) {
      const field = scope.getByLabel(label);
      await (how === 'click' ? field.click() : field.tap());
      await field.pressSequentially(typed);
      expect(await field.inputValue()).toBe(typed);
    }
  }

  it('replaces "00" with what is typed after a click, on the dashboard, New Entry and Edit', async () => {
    const page = await journey.newPage();
    await loginViaUi(page, runner.email, runner.password);
    await settled(page);

    const form = page.getByRole('region', { name: 'Add new Time Record' });
    await form.getByLabel('Date').fill(isoDay(1));
    await form.getByLabel('Distance (km)').fill('10');
    await typeTime(form, ['01', '44', '07'], 'click');
    await form.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('New time record was added!').waitFor();

    await page.goto('/entry/new');
    await page.getByRole('heading', { level: 1, name: 'New Entry' }).waitFor();
    await page.getByLabel('Date').fill(isoDay(2));
    await page.getByLabel('Distance (km)').fill('5');
    await typeTime(page, ['00', '28', '30'], 'click');
    // One digit typed after a click stands alone and is padded when the field is left.
    await page.getByLabel('Seconds').click();
    await page.getByLabel('Seconds').pressSequentially('9');
    expect(await page.getByLabel('Seconds').inputValue()).toBe('9');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('New time record was added!').first().waitFor();
    await page.waitForURL('**/entries');
    await expect
      .poll(() => page.getByRole('row', { name: new RegExp(shownDate(isoDay(1))) }).textContent())
      .toContain('01:44:07');
    await expect
      .poll(() => page.getByRole('row', { name: new RegExp(shownDate(isoDay(2))) }).textContent())
      .toContain('00:28:09');

    await page.getByRole('link', { name: `Edit entry of ${shownDate(isoDay(2))}` }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Entry' }).waitFor();
    await expect.poll(() => page.getByLabel('Minutes').inputValue()).toBe('28');
    await typeTime(page, ['00', '31', '15'], 'click');
    // A field left full with the caret in it: the next digit starts it over.
    const minutes = page.getByLabel('Minutes');
    await minutes.click();
    await minutes.press('End');
    await minutes.pressSequentially('32');
    expect(await minutes.inputValue()).toBe('32');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Time record was updated!').waitFor();
    await page.waitForURL('**/entries');
    await expect
      .poll(() => page.getByRole('row', { name: new RegExp(shownDate(isoDay(2))) }).textContent())
      .toContain('00:32:15');
  });

  it('replaces "00" with what is typed after a tap on a touch screen', async () => {
    const context = await journey.browser.newContext({
      baseURL: journey.server.baseUrl,
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await loginViaUi(page, runner.email, runner.password);
      await page.goto('/entry/new');
      await page.getByRole('heading', { level: 1, name: 'New Entry' }).waitFor();
      await settled(page);
      await page.getByLabel('Date').fill(isoDay(3));
      await page.getByLabel('Distance (km)').fill('8');
      await typeTime(page, ['00', '44', '21'], 'tap');
      await page.getByRole('button', { name: 'Submit' }).tap();
      await page.getByText('New time record was added!').first().waitFor();
      await page.waitForURL('**/entries');
      const saved = await callApi(journey.server.baseUrl, 'GET', `/entry?dateFrom=${isoDay(3)}&dateTo=${isoDay(3)}`, {
        token,
      });
      const runs = (saved.body.entries as { data: { time: string }[] }).data;
      expect(runs.map((run) => run.time)).toEqual(['00:44:21']);
    } finally {
      await context.close();
    }
  });
});
