/**
 * Routes and segments in the browser (CONTRACT.md §22), with the map's tiles unreachable: the same
 * tracked loop run twice forms a route; on the run's page a segment is marked by keyboard, fills in
 * and then shows its efforts; the run page links its route. At 375 px and on a desktop, in both
 * themes, nothing is wider than the screen and axe is clean.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realisticFit } from '../server/test/imports/track-fixtures.js';
import { seriousViolations } from './support/axe.js';
import { apiRegister, isoDay, loginViaUi, settled, startJourney, type Journey } from './support/journey.js';

const UNREACHABLE_TILES = 'http://127.0.0.1:9/{z}/{x}/{y}.png';
/** The same 15-minute loop (seed 5 always runs the same way) on two days. */
const loop = (daysAgo: number) =>
  Buffer.from(realisticFit(900, { seed: 5, start: new Date(`${isoDay(daysAgo)}T07:00:00Z`) }));

const overflowOf = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

describe('routes journey', () => {
  let journey: Journey;
  const rio = { name: 'Rio Loop', email: 'rio-loop@example.com', password: 'rio-password-1' };
  let runPath = '';
  let routePath = '';
  let segmentPath = '';

  beforeAll(async () => {
    journey = await startJourney({ MAP_TILE_URL: UNREACHABLE_TILES });
    await apiRegister(journey.server.baseUrl, rio);
  });

  afterAll(async () => {
    await journey?.close();
  });

  it('forms a route from a loop run twice, marks a segment on the run page, and follows the route', async () => {
    const page = await journey.newPage();
    await loginViaUi(page, rio.email, rio.password);
    await page.goto('/data');
    await page.getByLabel('Drop files here, or choose them').setInputFiles([
      { name: 'loop-1.fit', mimeType: 'application/octet-stream', buffer: loop(20) },
      { name: 'loop-2.fit', mimeType: 'application/octet-stream', buffer: loop(10) },
    ]);
    await page.getByRole('button', { name: 'Preview import' }).click();
    await page.getByText('2 new runs, 0 duplicates, 0 skipped').waitFor();
    await page.getByRole('button', { name: 'Import 2 runs' }).click();
    await page.getByText('2 runs imported, 0 duplicates, 0 skipped').waitFor();

    // The route formed by itself: its map draws the line without tiles.
    await page.getByRole('button', { name: 'Insights' }).click();
    await page.getByRole('link', { name: 'Routes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Routes' }).waitFor();
    const link = page.getByRole('main').getByRole('link', { name: 'Route 1' });
    // The import answers before its runs are grouped (off the request path): the page is opened again until then.
    await expect
      .poll(
        async () => {
          if ((await link.count()) === 0) await page.reload();
          await page.getByRole('heading', { level: 1, name: 'Routes' }).waitFor();
          await settled(page);
          return link.count();
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toBe(1);
    const card = page.getByRole('main').locator('article', { has: page.getByRole('link', { name: 'Route 1' }) });
    await card.getByRole('region', { name: 'Map of Route 1' }).waitFor();
    await expect.poll(() => card.locator('.leaflet-overlay-pane path').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await card.getByText('Runs').locator('xpath=following-sibling::dd[1]').textContent()).toBe('2');
    await link.click();
    await page.waitForURL(/\/routes\/\d+$/);
    routePath = new URL(page.url()).pathname;
    const efforts = page.getByRole('table', { name: 'Runs on this route' });
    await efforts.locator('tbody tr').nth(1).waitFor();
    expect(await efforts.locator('tbody tr').count()).toBe(2);
    await page.getByRole('img', { name: 'Times on this route over the years' }).waitFor();

    // The newer run's page: its route, ranked; a segment marked by keyboard.
    await efforts.locator('tbody tr').nth(0).getByRole('link').click();
    await page.waitForURL(/\/entry\/\d+$/);
    runPath = new URL(page.url()).pathname;
    const places = page.getByRole('region', { name: 'Route and segments' });
    await places.getByRole('link', { name: 'Route 1' }).waitFor();
    const routeMapLines = page.getByRole('region', { name: 'Route map' }).locator('.leaflet-overlay-pane path');
    await expect.poll(() => routeMapLines.count(), { timeout: 15_000 }).toBe(1);
    await page.getByRole('button', { name: 'Mark a segment' }).click();
    await page.getByLabel('Start (km)').fill('0.5');
    await page.getByLabel('End (km)').fill('1.5');
    // The stretch shows on the map as it is typed.
    await expect.poll(() => routeMapLines.count(), { timeout: 15_000 }).toBe(2);
    await page.getByLabel('Name', { exact: true }).fill('Middle kilometre');
    await page.getByLabel('Name', { exact: true }).press('Enter');
    // The marking panel names the new segment; the run's own list of segments names it too once matched.
    const created = page
      .getByRole('region', { name: 'Mark a segment' })
      .getByRole('link', { name: 'Middle kilometre' });
    await created.waitFor();
    // It fills in, then says how many runs passed it (both runs went this way).
    await page.getByText('2 runs found').waitFor({ timeout: 30_000 });
    await created.click();
    await page.waitForURL(/\/segments\/\d+$/);
    segmentPath = new URL(page.url()).pathname;
    await page.getByRole('table', { name: 'Efforts on this segment' }).locator('tbody tr').nth(1).waitFor();
    expect(await page.getByRole('table', { name: 'Efforts on this segment' }).locator('tbody tr').count()).toBe(2);

    // Back on the run page, the segment is listed with its rank, and the route link is followed.
    await page.goto(runPath);
    const segments = page.getByRole('table', { name: 'Segments on this run' });
    await segments.getByRole('link', { name: 'Middle kilometre' }).waitFor();
    await page.getByRole('region', { name: 'Route and segments' }).getByRole('link', { name: 'Route 1' }).click();
    await page.waitForURL(new RegExp(`${routePath}$`));
    await page.getByRole('heading', { level: 1, name: 'Route 1' }).waitFor();
  });

  it.each([
    [375, 'light'],
    [375, 'dark'],
    [1280, 'light'],
    [1280, 'dark'],
  ] as const)('at %i px in the %s theme: axe clean, nothing wider', async (width, scheme) => {
    expect(segmentPath).not.toBe('');
    const page = await journey.newPage({ width, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    await loginViaUi(page, rio.email, rio.password);
    for (const path of ['/routes', routePath, '/segments', segmentPath, runPath]) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      if (path === runPath) await page.getByRole('region', { name: 'Route and segments' }).waitFor();
      await settled(page);
      expect(await overflowOf(page), `${path} at ${width} px`).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page), `${path} (${scheme}, ${width} px)`).toEqual([]);
    }
  });
});
