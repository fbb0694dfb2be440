/**
 * A watch file in the browser (issues 28 and 29), with the map's tiles unreachable as on a
 * machine without internet: imported from Your data, its run opened from the list shows the
 * route, the charts moving a spot on the map, splits per km and per mile, best efforts and
 * heart-rate zones, and downloads its GPX by keyboard; at 375 px in both themes nothing is wider
 * than the screen and axe is clean. A record links to the run at the stretch it was run, and the
 * map of every run draws its line and opens the run when the line is clicked.
 */
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realisticFit } from '../server/test/imports/track-fixtures.js';
import { seriousViolations } from './support/axe.js';
import { apiRegister, isoDay, loginViaUi, settled, shownDate, startJourney, type Journey } from './support/journey.js';

/** Nothing listens there: every tile fails, as offline. */
const UNREACHABLE_TILES = 'http://127.0.0.1:9/{z}/{x}/{y}.png';
const RUN_DAY = isoDay(10);
/** 2,650 s of running: 9.71 km, so 10 splits per km and 7 per mile. */
const WATCH_FILE = Buffer.from(realisticFit(2650, { start: new Date(`${RUN_DAY}T07:00:00Z`) }));

const overflowOf = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
const bodyRows = (table: Locator) => table.locator('tbody tr');

/** The size on screen of the first line Leaflet drew in `map` (SVG), or null before it is drawn. */
async function drawnLine(map: Locator): Promise<{ width: number; height: number } | null> {
  const path = map.locator('.leaflet-overlay-pane path').first();
  if ((await path.count()) === 0) return null;
  const box = await path.boundingBox();
  return box && { width: box.width, height: box.height };
}

/**
 * A point of the page where the canvas of the map named `mapName` has a line drawn (not transparent), inside the
 * map's visible box; null while nothing is drawn.
 */
function paintedPoint(page: Page, mapName: string): Promise<{ x: number; y: number } | null> {
  // Run in the page, as text: the browser's types are not the tests'.
  return page.evaluate<{ x: number; y: number } | null>(`(() => {
    const container = document.querySelector('[role="region"][aria-label=${JSON.stringify(mapName)}]');
    const canvas = container && container.querySelector('.leaflet-overlay-pane canvas');
    const context = canvas && canvas.getContext('2d');
    if (!canvas || !context || canvas.width === 0) return null;
    const box = canvas.getBoundingClientRect();
    const visible = container.getBoundingClientRect();
    const scale = box.width / canvas.width;
    const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
    for (let y = 0; y < canvas.height; y += 2) {
      for (let x = 0; x < canvas.width; x += 2) {
        if (data[(y * canvas.width + x) * 4 + 3] === 0) continue;
        const point = { x: box.left + x * scale, y: box.top + y * scale };
        const inside = point.x > visible.left + 4 && point.x < visible.right - 4 &&
          point.y > visible.top + 4 && point.y < visible.bottom - 4;
        if (inside) return point;
      }
    }
    return null;
  })()`);
}

describe('tracks journey', () => {
  let journey: Journey;
  const ria = { name: 'Ria Route', email: 'ria-route@example.com', password: 'ria-password-1' };
  let runPath = '';

  beforeAll(async () => {
    journey = await startJourney({ MAP_TILE_URL: UNREACHABLE_TILES });
    await apiRegister(journey.server.baseUrl, ria);
  });

  afterAll(async () => {
    await journey?.close();
  });

  it('imports a watch file and opens its run: route without tiles, charts, splits, best efforts, zones, GPX', async () => {
    const page = await journey.newPage();
    await loginViaUi(page, ria.email, ria.password);
    await page.goto('/data');
    await page
      .getByLabel('Drop files here, or choose them')
      .setInputFiles({ name: 'tempo.fit', mimeType: 'application/octet-stream', buffer: WATCH_FILE });
    await page.getByRole('button', { name: 'Preview import' }).click();
    await page.getByText('1 new run, 0 duplicates, 0 skipped').waitFor();
    await page.getByRole('button', { name: 'Import 1 run' }).click();
    await page.getByText('1 run imported, 0 duplicates, 0 skipped').waitFor();

    // Opened from the list of runs.
    await page.goto('/entries');
    await page.getByRole('link', { name: shownDate(RUN_DAY), exact: true }).click();
    await page.waitForURL(/\/entry\/\d+$/);
    runPath = new URL(page.url()).pathname;

    // The route is drawn though no tile loads.
    const map = page.getByRole('region', { name: 'Route map' });
    await map.waitFor();
    await expect.poll(() => drawnLine(map)).toMatchObject({ width: expect.any(Number) });
    const line = (await drawnLine(map))!;
    expect(Math.max(line.width, line.height)).toBeGreaterThan(100);
    const tiles = map.locator('img.leaflet-tile');
    expect(await tiles.count()).toBeGreaterThan(0);
    expect(
      await tiles.evaluateAll((images) => images.filter((i) => Number(Reflect.get(i, 'naturalWidth')) > 0).length),
    ).toBe(0);

    // The charts move a spot along the route.
    // A chart is drawn once its place is on screen.
    await page.getByRole('region', { name: 'Pace, elevation and heart rate' }).scrollIntoViewIfNeeded();
    const pace = page.getByRole('img', { name: 'Pace' });
    await pace.scrollIntoViewIfNeeded();
    const chart = (await pace.boundingBox())!;
    await page.mouse.move(chart.x + chart.width / 2, chart.y + chart.height / 2);
    await expect.poll(() => map.locator('.leaflet-overlay-pane path').count()).toBe(2);

    // Splits per km, best efforts, heart-rate zones.
    expect(await bodyRows(page.getByRole('table', { name: 'Splits' })).count()).toBe(10);
    const efforts = page.getByRole('table', { name: 'Best efforts' });
    for (const name of ['1 km', '1 mile', '5 km'])
      await efforts.getByRole('rowheader', { name, exact: true }).waitFor();
    expect(await efforts.getByRole('rowheader', { name: '10 km', exact: true }).count()).toBe(0);
    expect(await bodyRows(page.getByRole('table', { name: 'Heart-rate zones' })).count()).toBe(5);

    // The GPX, by keyboard.
    const gpxLink = page.getByRole('link', { name: 'Download GPX' });
    await gpxLink.focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toMatch(/\.gpx$/);
    const gpx = (await readFile((await download.path())!)).toString();
    expect(gpx.match(/<trkpt /g)?.length).toBeGreaterThan(2600);

    // In miles, chosen on the profile: 7 splits.
    await page.goto('/profile');
    await page.getByLabel('Units').selectOption('mi');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByText('Your preferences were saved!').waitFor();
    await page.goto(runPath);
    await page.getByText('Splits per mile').waitFor();
    expect(await bodyRows(page.getByRole('table', { name: 'Splits' })).count()).toBe(7);
    await page.goto('/profile');
    await page.getByLabel('Units').selectOption('km');
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByText('Your preferences were saved!').waitFor();
  });

  it.each(['light', 'dark'] as const)(
    'shows the run page at 375 px in the %s theme: axe clean, nothing wider',
    async (scheme) => {
      expect(runPath).not.toBe('');
      const page = await journey.newPage({ width: 375, height: 740 });
      await page.emulateMedia({ colorScheme: scheme });
      await loginViaUi(page, ria.email, ria.password);
      await page.goto(runPath);
      const map = page.getByRole('region', { name: 'Route map' });
      await map.waitFor();
      await expect.poll(() => drawnLine(map)).not.toBeNull();
      await page.getByRole('table', { name: 'Best efforts' }).waitFor();
      await settled(page);
      expect(await overflowOf(page)).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page), `${runPath} (${scheme})`).toEqual([]);
    },
  );

  it('links a record to its run at the stretch it was run, and the map of every run opens the run', async () => {
    expect(runPath).not.toBe('');
    const page = await journey.newPage();
    await loginViaUi(page, ria.email, ria.password);

    await page.getByRole('button', { name: 'Insights' }).click();
    await page.getByRole('link', { name: 'Records' }).click();
    const place = page.getByText(/^Fastest 5 km within your 9\.7\d km run, from km \d+\.\d\d$/);
    await place.waitFor();
    const from = Number((await place.textContent())!.split('from km ')[1]);
    expect(await seriousViolations(page), '/insights/records').toEqual([]);
    const row = page.getByRole('row').filter({ hasText: /^5 km/ });
    await row.getByRole('link', { name: shownDate(RUN_DAY), exact: true }).click();
    await page.waitForURL((url) => url.pathname === runPath && url.searchParams.get('effort') === '5k');
    const marked = page.getByRole('table', { name: 'Best efforts' }).locator('tr[aria-current="true"]');
    await marked.waitFor();
    expect(await marked.getByRole('rowheader').textContent()).toBe('5 km');
    // The stretch the record names: where the marked effort starts.
    expect(Number(await marked.getByRole('cell').last().textContent())).toBeCloseTo(from, 2);

    await page.getByRole('button', { name: 'Insights' }).click();
    await page.getByRole('link', { name: 'Map' }).click();
    await page.waitForURL('**/insights/map');
    const map = page.getByRole('region', { name: 'Map of every run' });
    await map.waitFor();
    await page.getByText(/^1 run, 9\.7\d km$/).waitFor();
    await expect.poll(() => paintedPoint(page, 'Map of every run'), { timeout: 15_000 }).not.toBeNull();
    expect(await seriousViolations(page), '/insights/map').toEqual([]);
    const point = (await paintedPoint(page, 'Map of every run'))!;
    await page.mouse.click(point.x, point.y);
    await page.waitForURL((url) => url.pathname === runPath);
    await page.getByRole('region', { name: 'Route map' }).waitFor();
  });
});
