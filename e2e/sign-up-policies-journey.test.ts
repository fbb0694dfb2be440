/**
 * The sign-up policies that need an admin (CONTRACT.md §21), in the browser, with a real SMTP server:
 * under SIGNUP=approval a newcomer registers, is told to wait, cannot sign in until an admin approves
 * them in the admin panel, is mailed, then signs in; under SIGNUP=closed registration is refused, an
 * admin invites someone from the admin panel, the invitee follows the mailed link, creates the account
 * and is signed in, and the same link a second time is refused. The admin's screens are axe-clean in
 * both themes at 375 px.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtp, type TestSmtp } from '../server/test/mail/smtp.js';
import { expectCleanInBothThemes } from './support/axe.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, loginViaUi, startJourney, type Journey } from './support/journey.js';

const PUBLIC_URL = 'https://runs.example.org';

async function fillRegistration(page: Page, name: string, email: string, password: string) {
  await page.goto('/register');
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('E-Mail Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Register' }).click();
}

async function logout(page: Page) {
  await page.goto('/logout');
  await page.waitForURL((url) => url.pathname === '/');
}

describe.each(['approval', 'closed'] as const)('sign-up policy %s', (policy) => {
  let smtp: TestSmtp;
  let journey: Journey;
  let page: Page;

  beforeAll(async () => {
    smtp = await startSmtp();
    journey = await startJourney({ SMTP_URL: smtp.url, MAIL_FROM: 'runs@example.org', PUBLIC_URL, SIGNUP: policy });
    page = await journey.newPage({ width: 375, height: 740 });
  });

  afterAll(async () => {
    await journey?.close();
    await smtp?.close();
  });

  /** A mailed link, opened on the server under test (the link names PUBLIC_URL). */
  const open = (link: string | null) => page.goto(link!.slice(PUBLIC_URL.length));

  const approval = async () => {
    const email = 'paula.pending@example.com';
    await fillRegistration(page, 'Paula Pending', email, 'pending-pass-1');
    await page.getByText('Your account was created and is waiting for an admin to approve it.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/register');
    // The right password still waits for the admin.
    await page.goto('/login');
    await page.getByLabel('E-Mail Address').fill(email);
    await page.getByLabel('Password').fill('pending-pass-1');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('form', { name: 'Login' }).getByText('Your account is waiting for approval.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');

    await loginViaUi(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto('/admin/users');
    const waiting = page.getByRole('region', { name: 'Waiting for approval' });
    await waiting.getByRole('cell', { name: email }).waitFor();
    await expectCleanInBothThemes(page, page.url());
    await waiting.getByRole('button', { name: 'Approve Paula Pending' }).click();
    await page.getByText('Paula Pending can sign in now.').waitFor();
    await waiting.getByText('No account is waiting for approval.').waitFor();
    await logout(page);

    const mail = await smtp.next(email, 20_000);
    expect(mail.text).toContain(PUBLIC_URL);
    await loginViaUi(page, email, 'pending-pass-1');
    await logout(page);
  };

  const closed = async () => {
    await fillRegistration(page, 'Nobody Invited', 'nobody@example.com', 'nobody-pass-1');
    await page.getByText('Registration is closed: ask an admin for an invitation.').waitFor();

    await loginViaUi(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.goto('/admin/users');
    const invite = page.getByRole('form', { name: 'Invite someone' });
    await invite.waitFor();
    await expectCleanInBothThemes(page, page.url());
    await invite.getByLabel('E-mail address').fill('ines.invited@example.com');
    await invite.getByRole('button', { name: 'Send the invitation' }).click();
    await page.getByText('An invitation is on its way to ines.invited@example.com.').waitFor();
    await logout(page);

    const mail = await smtp.next('ines.invited@example.com', 20_000);
    await open(mail.link);
    await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
    await expectCleanInBothThemes(page, page.url());
    await page.getByLabel('Name', { exact: true }).fill('Ines Invited');
    await page.getByLabel('New password', { exact: true }).fill('invited-pass-1');
    await page.getByLabel('Repeat the new password').fill('invited-pass-1');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await logout(page);

    // The link works once: the second time the page says so and creates nothing.
    await open(mail.link);
    await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Ines Again');
    await page.getByLabel('New password', { exact: true }).fill('invited-pass-2');
    await page.getByLabel('Repeat the new password').fill('invited-pass-2');
    await page.getByRole('button', { name: 'Create my account' }).click();
    const refused = page.getByRole('form', { name: 'Create your account' }).getByRole('alert');
    await refused.waitFor();
    expect((await refused.textContent())!.length).toBeGreaterThan(10);
    expect(new URL(page.url()).pathname).toBe('/accept-invitation');
  };

  it(
    {
      approval: 'register -> wait -> an admin approves -> mail -> sign in',
      closed: 'registration refused -> an admin invites -> mail -> create the account -> the link once',
    }[policy],
    policy === 'approval' ? approval : closed,
  );
});
