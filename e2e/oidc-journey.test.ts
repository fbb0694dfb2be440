/**
 * Single sign-on in the browser (CONTRACT.md §21): the login page offers "Sign in with <name>",
 * the runner signs in and consents at a real OpenID provider (oidc-provider's own pages), comes
 * back signed in to a new account, and the next time straight to the dashboard. The login page
 * with the button is axe-clean in both themes and usable 375 px wide.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ID, CLIENT_SECRET, startCertifiedProvider } from '../server/test/oidc/providers.js';
import { expectCleanInBothThemes } from './support/axe.js';
import { startJourney, type Journey } from './support/journey.js';

// A port of this journey's own: PUBLIC_URL, and with it the redirect URI, must be known first.
const PORT = 4300 + Math.floor(Math.random() * 100);
const PUBLIC_URL = `http://127.0.0.1:${PORT}`;

async function cleanInBothThemes(page: Page, what: string): Promise<void> {
  await expectCleanInBothThemes(page, what);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth'), what).toBeLessThanOrEqual(375);
}

describe('single sign-on', () => {
  let provider: Awaited<ReturnType<typeof startCertifiedProvider>>;
  let journey: Journey;

  beforeAll(async () => {
    provider = await startCertifiedProvider({
      redirectUri: `${PUBLIC_URL}/api/v1/auth/oidc/callback`,
      devInteractions: true,
    });
    provider.people.set('pat', { email: 'pat@example.com', email_verified: true, name: 'Pat Provider' });
    journey = await startJourney(
      {
        PUBLIC_URL,
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: CLIENT_ID,
        OIDC_CLIENT_SECRET: CLIENT_SECRET,
        OIDC_NAME: 'Pocket ID',
      },
      PORT,
    );
  });

  afterAll(async () => {
    await journey?.close();
    await provider?.close();
  });

  it('signs a runner in at the provider and brings them back signed in', async () => {
    const page = await journey.newPage({ width: 375, height: 800 });
    // A sign-in refused at the provider comes back with its reason, shown and taken out of the address.
    await page.goto('/login#oidc_error=denied');
    await page.getByRole('alert').filter({ hasText: 'The sign-in was cancelled at the provider.' }).waitFor();
    expect(new URL(page.url()).hash).toBe('');
    const button = page.getByRole('link', { name: 'Sign in with Pocket ID' });
    await button.waitFor();
    await cleanInBothThemes(page, 'the login page with single sign-on');

    await button.click();
    // oidc-provider's own login and consent pages.
    await page.locator('input[name="login"]').fill('pat');
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL('**/dashboard');
    await page.getByText('You logged in!').waitFor();
    // The code is gone from the address, and a reload keeps the runner signed in.
    expect(new URL(page.url()).hash).toBe('');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');

    // The next time the provider knows the runner: one click, straight back signed in.
    await page.goto('/logout');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with Pocket ID' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByText('You logged in!').waitFor();
  });
});
