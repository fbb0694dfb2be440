import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.js';
import { pathOf, settled } from './support/journey.js';
import { startServer, type RunningServer } from './support/server.js';
import type { Browser } from 'playwright-core';

describe('demo mode', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ DEMO_MODE: '1' });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('prefills the login with the demo admin, who logs straight in and sees months of runs', async () => {
    const config = (await (await fetch(`${server.baseUrl}/api/v1/app-config`)).json()) as {
      demo_login: { email: string; password: string };
    };
    const page = await browser.newPage({ baseURL: server.baseUrl });
    await page.goto('/login');
    await expect.poll(() => page.getByLabel('E-Mail Address').inputValue()).toBe(config.demo_login.email);
    expect(await page.getByLabel('Password').inputValue()).toBe(config.demo_login.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('link', { name: 'Admin Panel' }).waitFor();
    await page.goto('/entries');
    await settled(page);
    await expect.poll(() => page.getByText(/^Page 1 of \d+$/).textContent()).not.toBe('Page 1 of 1');
    await page.getByRole('navigation', { name: 'Entries pages' }).getByRole('button', { name: 'Page 2' }).click();
    await expect.poll(() => pathOf(page)).toBe('/entries?page=2');
    await expect.poll(() => page.getByText(/^Page 2 of \d+$/).isVisible()).toBe(true);
    // Here, and only here, accounts go every day at 4am UTC.
    await page.goto('/delete-account');
    await expect.poll(() => page.getByRole('main').textContent()).toContain('every day at 4am UTC');
  });
});
