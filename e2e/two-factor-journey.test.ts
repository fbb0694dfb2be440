/**
 * Two-factor sign-in in the browser (CONTRACT.md §21): a runner turns it on from the profile
 * (reading the key from the page; the code computed here by an independent TOTP), keeps the
 * recovery codes, logs out, and logs in with the password and then a code; the code step's chunk
 * loads only then. Axe-clean in both themes and usable 375 px wide.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totp } from '../server/test/two-factor/totp.js';
import { expectCleanInBothThemes } from './support/axe.js';
import { apiRegister, loginViaUi, startJourney, type Journey } from './support/journey.js';

const runner = { name: 'Tess Totp', email: 'tess@example.com', password: 'tess-password-1' };
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function fitsAndClean(page: Page, what: string): Promise<void> {
  await expectCleanInBothThemes(page, what);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth'), what).toBeLessThanOrEqual(375);
}

describe('two-factor sign-in', () => {
  let journey: Journey;

  beforeAll(async () => {
    journey = await startJourney();
    await apiRegister(journey.server.baseUrl, runner);
  });

  afterAll(async () => {
    await journey?.close();
  });

  it('is turned on from the profile, then asks for a code after the password', async () => {
    const page = await journey.newPage({ width: 375, height: 800 });
    await loginViaUi(page, runner.email, runner.password);

    await page.goto('/profile');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = ((await page.getByTestId('two-factor-secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await fitsAndClean(page, 'the set-up');

    await page.getByLabel('Code from your app').fill(totp(secret, nowSeconds()));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    const codes = await page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(10);
    await fitsAndClean(page, 'the recovery codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('Enter your password to turn two-factor sign-in off.').waitFor();

    await page.goto('/logout');
    await page.waitForURL((url) => url.pathname === '/');
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/login');
    await page.getByLabel('E-Mail Address').fill(runner.email);
    await page.getByLabel('Password').fill(runner.password);
    expect(scripts.filter((path) => path.includes('code-step'))).toEqual([]);
    await page.getByRole('button', { name: 'Login' }).click();

    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    expect(scripts.filter((path) => path.includes('code-step'))).toHaveLength(1);
    await fitsAndClean(page, 'the code step');
    // The code of the next step: the one that turned it on was this step's or the one before.
    const code = page.getByLabel('Code', { exact: true });
    // A guessed code is refused on the spot, and the step stays for another try.
    const guessed = totp(secret, nowSeconds(), 1) === '000000' ? '111111' : '000000';
    await code.fill(guessed);
    await code.press('Enter');
    await page.getByText('The code is not valid.').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await code.fill(totp(secret, nowSeconds(), 1));
    await code.press('Enter');
    await page.waitForURL('**/dashboard');
    await page.getByText('You logged in!').waitFor();
  });
});
