/**
 * Accounts a self-hoster can leave alone (CONTRACT.md §21), in the browser, with a real SMTP server:
 * forgot -> mail -> reset -> login; register under SIGNUP=verify -> mail -> verify. The new screens
 * are axe-clean in both themes at 375 px.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp, type TestSmtp } from '../server/test/mail/smtp.js';
import { expectCleanInBothThemes } from './support/axe.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, loginViaUi, startJourney, type Journey } from './support/journey.js';

const PUBLIC_URL = 'https://runs.example.org';

describe('accounts by mail', () => {
  let smtp: TestSmtp;
  let journey: Journey;
  let page: Page;

  beforeAll(async () => {
    smtp = await startSmtp();
    journey = await startJourney({ SMTP_URL: smtp.url, MAIL_FROM: 'runs@example.org', PUBLIC_URL, SIGNUP: 'verify' });
    page = await journey.newPage({ width: 375, height: 740 });
  });

  afterAll(async () => {
    await journey?.close();
    await smtp?.close();
  });

  /** A mailed link, opened on the server under test (the link names PUBLIC_URL). */
  const open = (link: string | null) => page.goto(link!.slice(PUBLIC_URL.length));

  it('forgot -> mail -> reset -> login', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/forgot-password');
    await expectCleanInBothThemes(page, page.url());
    await page.getByLabel('E-mail address').fill(ADMIN_EMAIL);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('status').filter({ hasText: 'a link to reset its password is on its way' }).waitFor();
    const mail = await smtp.next(ADMIN_EMAIL, 20_000);
    await open(mail.link);
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    await expectCleanInBothThemes(page, page.url());
    await page.getByLabel('New password', { exact: true }).fill('a-brand-new-pass-1');
    await page.getByLabel('Repeat the new password').fill('a-brand-new-pass-1');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.getByText('Your password was reset').waitFor();
    await loginViaUi(page, ADMIN_EMAIL, 'a-brand-new-pass-1');
    expect(ADMIN_PASSWORD).not.toBe('a-brand-new-pass-1');
    await page.goto('/logout');
    // Logging out clears the offline queue and the caches first, then lands on the home page.
    await page.waitForURL((url) => url.pathname === '/');
  });

  it('register under verify -> mail -> verify', async () => {
    const email = `verified-${Date.now()}@example.com`;
    await page.goto('/register');
    await page.getByLabel('Name', { exact: true }).fill('Vera Verified');
    await page.getByLabel('E-Mail Address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('verified-pass-1');
    await page.getByLabel('Confirm Password').fill('verified-pass-1');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('status').filter({ hasText: 'Check your mailbox' }).waitFor();
    const mail = await smtp.next(email, 20_000);
    await open(mail.link);
    await page.waitForURL('**/dashboard');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Dashboard');
  });
});
