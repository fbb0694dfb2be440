import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathOf, startJourney, type Journey } from './support/journey.js';

describe('a guest', () => {
  let journey: Journey;
  let page: Page;

  beforeAll(async () => {
    journey = await startJourney();
    page = await journey.newPage();
  });

  afterAll(async () => {
    await journey?.close();
  });

  it('reads the home page with its calls to action', async () => {
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: 'Running Times' }).waitFor();
    const main = page.getByRole('main');
    expect(await main.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe('/register');
    expect(await main.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
  });

  it('reads the policy and how to delete an account (no daily clean-up outside demo mode)', async () => {
    await page.goto('/policy');
    await expect.poll(() => page.getByRole('main').textContent()).toContain('users under 13 are not served');
    await page.goto('/delete-account');
    await expect.poll(() => page.getByRole('main').textContent()).toContain('You can delete your account yourself');
    expect(await page.getByRole('main').textContent()).not.toContain('4am UTC');
  });

  it('is sent to /login from every screen that needs a login', async () => {
    for (const path of [
      '/dashboard',
      '/entries',
      '/entry/new',
      '/entry/edit/1',
      '/report/weekly',
      '/profile',
      '/logout',
      '/admin',
      '/admin/dashboard',
      '/admin/users',
      '/admin/user/show/1',
      '/admin/user/edit/1',
      '/admin/entries',
      '/admin/entry/edit/1',
    ]) {
      await page.goto(path);
      await page.waitForURL('**/login');
      expect(pathOf(page), `from ${path}`).toBe('/login');
    }
  });

  it('sees a red banner when the login fails', async () => {
    await page.goto('/login');
    await page.getByLabel('E-Mail Address').fill('nobody@example.com');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Login' }).click();
    const banner = page.locator('form .alert-danger');
    await banner.waitFor();
    expect(await banner.textContent()).toBe('These credentials do not match our records.');
    expect(pathOf(page)).toBe('/login');
  });

  it('sees per-field errors for an empty login', async () => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login' }).click();
    const email = page.getByLabel('E-Mail Address');
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('The email field is required.').isVisible()).toBe(true);
  });

  it('sees the 404 page for an unknown address', async () => {
    await page.goto('/no/such/page');
    await page.getByRole('heading', { level: 1, name: 'Error 404' }).waitFor();
    expect(await page.getByText('Page not found.').isVisible()).toBe(true);
  });

  it('gets a collapsed navbar at 375 px that opens and closes with its toggler', async () => {
    const phone = await journey.newPage({ width: 375, height: 740 });
    await phone.goto('/');
    const toggler = phone.getByRole('button', { name: 'Toggle navigation' });
    await toggler.waitFor();
    const nav = phone.getByRole('navigation', { name: 'Main' });
    const login = nav.getByRole('link', { name: 'Login' });
    expect(await login.isVisible()).toBe(false);
    expect(await toggler.getAttribute('aria-expanded')).toBe('false');
    await toggler.click();
    await login.waitFor({ state: 'visible' });
    expect(await toggler.getAttribute('aria-expanded')).toBe('true');
    await login.click();
    await phone.waitForURL('**/login');
    await expect.poll(() => login.isVisible()).toBe(false);
    // Nothing is wider than the screen.
    const overflow = await phone.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
