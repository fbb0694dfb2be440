/**
 * What every journey needs: the built app on a fresh database, a browser, and a
 * few steps that several journeys share (register, log in, call the API).
 */
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type RunningServer } from './server.js';

export { ADMIN_EMAIL, ADMIN_PASSWORD };

export interface Journey {
  server: RunningServer;
  browser: Browser;
  /** A fresh browser context (its own local storage) and page. */
  newPage: (options?: { width?: number; height?: number; locale?: string }) => Promise<Page>;
  close: () => Promise<void>;
}

/** `env` adds to the server's environment (MAP_TILE_URL, ...). */
export async function startJourney(env: Record<string, string> = {}, port?: number): Promise<Journey> {
  const server = await startServer(env, port);
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    await server.stop();
    throw error;
  }
  const contexts: BrowserContext[] = [];
  return {
    server,
    browser,
    async newPage({ width = 1280, height = 900, locale }: { width?: number; height?: number; locale?: string } = {}) {
      // `locale`: the browser's language (navigator.language and Accept-Language).
      const context = await browser.newContext({
        baseURL: server.baseUrl,
        viewport: { width, height },
        ...(locale ? { locale } : {}),
      });
      contexts.push(context);
      const page = await context.newPage();
      // Generous: a shared two-core machine running the whole suite can be slow to answer.
      page.setDefaultTimeout(30_000);
      return page;
    },
    async close() {
      await Promise.all(contexts.map((context) => context.close().catch(() => undefined)));
      await browser.close().catch(() => undefined);
      await server.stop();
    },
  };
}

/**
 * The day a test file started: the days it seeds and the days it looks for are counted from it, so
 * a file that runs past midnight still finds the runs it added before.
 */
const FILE_STARTED = Date.now();

/** `YYYY-MM-DD` of a day `daysAgo` before the day the file started (UTC, like the browser and server here). */
export function isoDay(daysAgo = 0): string {
  return new Date(FILE_STARTED - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` of the day it is now, for what the app itself fills in or opens at "today". */
export function currentDay(): string {
  return new Date().toISOString().slice(0, 10);
}

/** `MM/DD/YYYY` as the screens show a `YYYY-MM-DD` date. */
export function shownDate(ymd: string): string {
  const [year, month, day] = ymd.split('-');
  return `${month}/${day}/${year}`;
}

interface ApiResult {
  status: number;
  body: Record<string, unknown>;
}

export async function callApi(
  baseUrl: string,
  method: string,
  path: string,
  { token, body }: { token?: string; body?: Record<string, unknown> } = {},
): Promise<ApiResult> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export async function apiLogin(baseUrl: string, email: string, password: string): Promise<string> {
  const result = await callApi(baseUrl, 'POST', '/auth/login', { body: { email, password } });
  expect(result.status).toBe(200);
  return String(result.body.access_token);
}

export async function apiRegister(
  baseUrl: string,
  user: { name: string; email: string; password: string },
): Promise<{ token: string; id: number }> {
  const result = await callApi(baseUrl, 'POST', '/auth/register', {
    body: { ...user, password_confirmation: user.password, timezone: 'UTC' },
  });
  expect(result.status).toBe(201);
  const created = result.body.user as { id: number };
  return { token: String(result.body.access_token), id: created.id };
}

export async function apiAddEntry(
  baseUrl: string,
  token: string,
  entry: { date: string; distance: number; time: string },
) {
  const result = await callApi(baseUrl, 'POST', '/entry', { token, body: entry });
  expect(result.status).toBe(201);
  return (result.body.entry as { id: number }).id;
}

/** Logs in through the login screen and waits for the dashboard. */
export async function loginViaUi(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-Mail Address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/dashboard');
  await page.getByText('You logged in!').waitFor();
  // The address changes when the navigation starts; the screen is there once it has landed.
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
}

/** Waits until no request is in flight (the loading overlay is gone). */
export async function settled(page: Page): Promise<void> {
  await page.locator('[data-testid="spinner-overlay"]').waitFor({ state: 'detached' });
}

/**
 * Brings the page's charts on screen, one place after the other, until `count` are drawn: a chart is
 * drawn once its place is on screen (web/components/charts/when-on-screen.tsx).
 */
export async function drawCharts(page: Page, count: number): Promise<void> {
  await expect
    .poll(async () => {
      const waiting = page.locator('.chart-placeholder');
      if ((await waiting.count()) > 0) await waiting.first().scrollIntoViewIfNeeded();
      return page.locator('canvas').count();
    })
    .toBeGreaterThanOrEqual(count);
}

export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}
