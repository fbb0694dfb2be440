import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.js';
import { CHROMIUM_ARGS } from './support/browser.js';
import { apiLogin, apiRegister, callApi, isoDay, loginViaUi, settled } from './support/journey.js';
import { startServer, type RunningServer } from './support/server.js';

/**
 * On a phone, offline (CONTRACT.md §20): the app is installable (Chromium finds no installability
 * error), starts without a network once opened, keeps the runs added offline as waiting, sends
 * each one exactly once when the network is back, and forgets waiting runs at logout after a warning.
 */
describe('a runner without a network', () => {
  let server: RunningServer;
  let profile: string;
  let page: Page;
  let context: BrowserContext;
  const runner = { name: 'Olga Offline', email: 'olga@example.com', password: 'olga-password-1' };
  const runs = [
    { date: isoDay(1), distance: '7.3', minutes: '41' },
    { date: isoDay(2), distance: '12.4', minutes: '59' },
  ];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer();
    await apiRegister(server.baseUrl, runner);
    // A browser profile of its own: Chromium never offers to install an app from an incognito
    // context, which is what a new context of a launched browser is.
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'offline-journey-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
      baseURL: server.baseUrl,
      viewport: { width: 390, height: 844 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await server?.stop();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
  });

  const serverRuns = async () => {
    const token = await apiLogin(server.baseUrl, runner.email, runner.password);
    const list = await callApi(server.baseUrl, 'GET', '/entry?per_page=100', { token });
    expect(list.status).toBe(200);
    return (list.body.entries as { data: { date: string; distance: number; time: string }[] }).data;
  };

  it('serves the manifest and the worker with their types, the worker never cached for long', async () => {
    const base = server.baseUrl;
    const manifest = await fetch(`${base}/manifest.webmanifest`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const body = (await manifest.json()) as { icons: { sizes: string; purpose?: string }[]; start_url: string };
    expect(body.start_url).toBe('/');
    expect(body.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`)).toEqual(
      expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
    );
    const worker = await fetch(`${base}/sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/^(application|text)\/javascript/);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    const icon = await fetch(`${base}/icon-512.png`);
    expect(icon.headers.get('content-type')).toBe('image/png');
  });

  it('opens once online: the worker takes over and Chromium finds the app installable', async () => {
    await loginViaUi(page, runner.email, runner.password);
    await settled(page);
    // The worker registers after the page has loaded, precaches the app and then controls the page.
    await page.evaluate(`(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
      }
    })()`);
    const cdp = await context.newCDPSession(page);
    await expect
      .poll(async () => {
        const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
          installabilityErrors: { errorId: string }[];
        };
        return installabilityErrors.map((error) => error.errorId);
      })
      .toEqual([]);
    await cdp.detach();
  });

  it('adds two runs offline: each is kept and shown as waiting', async () => {
    await context.setOffline(true);
    const form = page.getByRole('region', { name: 'Add new Time Record' });
    for (const run of runs) {
      await form.getByLabel('Date').fill(run.date);
      await form.getByLabel('Distance (km)').fill(run.distance);
      await form.getByLabel('Minutes').fill(run.minutes);
      await form.getByRole('button', { name: 'Submit' }).click();
      await expect.poll(() => form.getByLabel('Distance (km)').inputValue()).toBe('');
    }
    await page.getByText('No network: the run is kept on this device', { exact: false }).first().waitFor();
    const banner = page.getByRole('region', { name: 'Runs not sent yet' });
    await banner.getByText('2 runs are waiting to be sent', { exact: false }).waitFor();
    expect(await banner.locator('[data-queued-run="waiting"]').count()).toBe(2);
    expect(await banner.textContent()).toContain('7.3 km');
    expect(await serverRuns()).toEqual([]);
    // The banner in both themes, on a phone.
    expect(await seriousViolations(page), 'waiting runs, light').toEqual([]);
    await page.evaluate(`document.documentElement.setAttribute('data-bs-theme', 'dark')`);
    expect(await seriousViolations(page), 'waiting runs, dark').toEqual([]);
    await page.evaluate(`document.documentElement.setAttribute('data-bs-theme', 'light')`);
  });

  it('starts again without a network, the waiting runs still shown and the form at hand', async () => {
    await page.reload();
    const banner = page.getByRole('region', { name: 'Runs not sent yet' });
    await banner.getByText('2 runs are waiting to be sent', { exact: false }).waitFor();
    await page.getByRole('region', { name: 'Add new Time Record' }).getByLabel('Distance (km)').waitFor();
    expect(await serverRuns()).toEqual([]);
  });

  it('sends each waiting run exactly once when the network is back', async () => {
    await context.setOffline(false);
    await page.getByText('2 waiting runs were saved.').waitFor();
    await page.getByRole('region', { name: 'Runs not sent yet' }).waitFor({ state: 'detached' });
    const stored = await serverRuns();
    expect(stored.map((run) => [run.date, run.distance, run.time]).sort()).toEqual(
      [
        [runs[0]!.date, 7.3, '00:41:00'],
        [runs[1]!.date, 12.4, '00:59:00'],
      ].sort(),
    );
    // Back online, a reload sends nothing again.
    await page.reload();
    await settled(page);
    await page.getByRole('region', { name: 'Best results' }).waitFor();
    expect(await serverRuns()).toHaveLength(2);
  });

  it('warns at logout while a run waits, then forgets it', async () => {
    await context.setOffline(true);
    const form = page.getByRole('region', { name: 'Add new Time Record' });
    await form.getByLabel('Date').fill(isoDay(3));
    await form.getByLabel('Distance (km)').fill('3');
    await form.getByLabel('Minutes').fill('20');
    await form.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('region', { name: 'Runs not sent yet' }).waitFor();

    // A phone's navbar is folded: its toggle first.
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('button', { name: runner.name }).click();
    await page.getByRole('link', { name: 'Logout' }).click();
    const dialog = page.getByRole('dialog', { name: 'Runs not sent yet' });
    await dialog.getByText('1 run on this device has not been sent yet', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Log out anyway' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    // What the browser still keeps of the queue.
    const left = await page.evaluate<number>(`new Promise((resolve, reject) => {
      const open = indexedDB.open('running-times-offline');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const count = open.result.transaction('queued-runs').objectStore('queued-runs').count();
        count.onsuccess = () => resolve(count.result);
      };
    })`);
    expect(left).toBe(0);
    await context.setOffline(false);
    expect(await serverRuns()).toHaveLength(2);
    expect(pageErrors).toEqual([]);
  });
});
