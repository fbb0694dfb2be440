/**
 * Webhooks in the browser (CONTRACT.md §20): a runner adds a webhook to a real receiver on this
 * machine (the server runs with WEBHOOK_PRIVATE=1, as a home server calling Home Assistant
 * would), copies its secret shown once, records a run, sees the delivery arrive signed and the
 * profile report it delivered, then deletes the webhook. The panel is axe clean and usable at 375 px.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../server/test/webhooks/receiver.js';
import { seriousViolations } from './support/axe.js';
import { watchErrors } from './support/browser.js';
import {
  apiAddEntry,
  apiRegister,
  isoDay,
  loginViaUi,
  settled,
  startJourney,
  type Journey,
} from './support/journey.js';

describe('webhooks', () => {
  let journey: Journey;
  let receiver: Receiver;
  let token: string;
  const email = 'hanna@example.com';
  const password = 'hanna-password-1';

  beforeAll(async () => {
    receiver = await startReceiver();
    journey = await startJourney({ WEBHOOK_PRIVATE: '1' });
    token = (await apiRegister(journey.server.baseUrl, { name: 'Hanna Hooks', email, password })).token;
  });

  afterAll(async () => {
    await journey?.close();
    await receiver?.close();
  });

  it('adds a webhook, shows its secret once, reports its delivery, and deletes it', async () => {
    const page = await journey.newPage({ width: 375, height: 800 });
    const errors = watchErrors(page);
    await loginViaUi(page, email, password);
    await page.goto('/profile');
    await page.getByRole('heading', { level: 2, name: 'Webhooks' }).waitFor();
    await page.getByText('You have no webhooks yet.').waitFor();

    await page.getByLabel('Address (URL)').fill(receiver.url);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = page.getByLabel('Webhook secret');
    await secret.waitFor();
    receiver.secret = await secret.inputValue();
    expect(receiver.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(await seriousViolations(page), 'light').toEqual([]);
    // The theme is `auto`: it follows the system's.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect
      .poll(() => page.evaluate<string | null>("document.documentElement.getAttribute('data-bs-theme')"))
      .toBe('dark');
    expect(await seriousViolations(page), 'dark').toEqual([]);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByLabel('Webhook secret').count()).toBe(0);

    await apiAddEntry(journey.server.baseUrl, token, { date: isoDay(1), distance: 7.5, time: '00:39:00' });
    const [arrival] = await receiver.waitFor(1, 15_000);
    expect(arrival!.event).toBe('run.created');
    expect(arrival!.signature).toBe(
      `sha256=${createHmac('sha256', receiver.secret).update(arrival!.body).digest('hex')}`,
    );
    expect(arrival!.json.entry).toMatchObject({ distance: 7.5, time: '00:39:00' });

    await expect
      .poll(async () => {
        await page.reload();
        await settled(page);
        // The list arrives after the page: its row's last delivery, then what it says.
        await page.locator('td[data-label="Last delivery"]').first().waitFor();
        return page.getByText(/· Delivered \(200\)/).count();
      })
      .toBe(1);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);

    await page.getByRole('button', { name: `Delete the webhook to ${receiver.url}` }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /delete|ok|yes/i })
      .click();
    await page.getByText('You have no webhooks yet.').waitFor();
    expect(errors).toEqual([]);
  });
});
