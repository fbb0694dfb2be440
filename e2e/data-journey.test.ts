/**
 * "Your data" in the browser: a Strava export zip is previewed row by row and imported, its
 * runs show in the list, the CSV export downloads, and importing it into another account
 * recreates the runs once (a second time, nothing new); the zip export then gives that account
 * the runs' tracks. Axe-clean and usable 375 px wide.
 */
import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gz, stravaCsv, zip } from '../server/test/imports/fixtures.js';
import { fitActivity } from '../server/test/imports/fit-fixtures.js';
import { seriousViolations } from './support/axe.js';
import { apiRegister, loginViaUi, shownDate, startJourney, type Journey } from './support/journey.js';

const archive = Buffer.from(
  zip({
    'activities.csv': stravaCsv([
      {
        id: 1,
        start: new Date('2024-03-12T18:00:00Z'),
        name: 'Tempo, "fast"',
        type: 'Run',
        metres: 10_020.5,
        moving: 2700,
        elapsed: 2800,
      },
      {
        id: 2,
        start: new Date('2024-03-13T07:00:00Z'),
        name: 'Commute',
        type: 'Ride',
        metres: 12_000,
        moving: 1800,
        elapsed: 1900,
      },
      {
        id: 3,
        start: new Date('2024-03-14T06:30:00Z'),
        name: 'Hills',
        type: 'Trail Run',
        metres: null,
        moving: null,
        elapsed: 0,
        filename: 'activities/3.fit.gz',
      },
    ]),
    'activities/3.fit.gz': gz(
      fitActivity({ start: new Date('2024-03-14T06:30:00Z'), metres: 7500, timerSeconds: 2600 }),
    ),
    'activities/9.fit': fitActivity({ start: new Date('2024-03-16T08:00:00Z'), metres: 21_097.5, timerSeconds: 6300 }),
  }),
);

async function upload(page: Page, name: string, buffer: Buffer) {
  await page
    .getByLabel('Drop files here, or choose them')
    .setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
  await page.getByRole('button', { name: 'Preview import' }).click();
}

describe('your data journey', () => {
  let journey: Journey;
  const ann = { name: 'Ann Archive', email: 'ann-data@example.com', password: 'ann-password-1' };
  const ben = { name: 'Ben Backup', email: 'ben-data@example.com', password: 'ben-password-1' };

  beforeAll(async () => {
    journey = await startJourney();
    await apiRegister(journey.server.baseUrl, ann);
    await apiRegister(journey.server.baseUrl, ben);
  });

  afterAll(async () => {
    await journey?.close();
  });

  it('imports a zip after a preview, lists the runs, exports them, and re-imports them elsewhere once', async () => {
    const page = await journey.newPage({ width: 375, height: 800 });
    await loginViaUi(page, ann.email, ann.password);
    await page.goto('/data');
    await page.getByRole('heading', { name: 'Import runs' }).waitFor();
    expect(await seriousViolations(page), '/data').toEqual([]);

    await upload(page, 'export_123.zip', archive);
    await page.getByText('3 new runs, 0 duplicates, 1 skipped').waitFor();
    await page.getByText('Not a run (Ride).').waitFor();
    expect(await seriousViolations(page), '/data preview').toEqual([]);
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(375);

    // The import button is reached by keyboard.
    const importButton = page.getByRole('button', { name: 'Import 3 runs' });
    await importButton.focus();
    await page.keyboard.press('Enter');
    await page.getByText('3 runs imported, 0 duplicates, 1 skipped').waitFor();

    await page.goto('/entries');
    for (const day of ['2024-03-12', '2024-03-14', '2024-03-16'])
      await page.getByText(shownDate(day)).first().waitFor();

    await page.goto('/data');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^running-times-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!);
    expect(csv.toString().split('\r\n')[0]).toBe('date,distance_km,time,title,notes,kind,effort,shoe');

    const other = await journey.newPage();
    await loginViaUi(other, ben.email, ben.password);
    await other.goto('/data');
    await upload(other, 'running-times.csv', csv);
    await other.getByText('3 new runs, 0 duplicates, 0 skipped').waitFor();
    await other.getByRole('button', { name: 'Import 3 runs' }).click();
    await other.getByText('3 runs imported, 0 duplicates, 0 skipped').waitFor();
    await upload(other, 'running-times.csv', csv);
    await other.getByText('0 new runs, 3 duplicates, 0 skipped').waitFor();
    expect(await other.getByRole('button', { name: 'Import 0 runs' }).isDisabled()).toBe(true);

    // The zip holds the runs' files too: into the account that has the runs, it adds their tracks.
    const [zipped] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download ZIP' }).click(),
    ]);
    expect(zipped.suggestedFilename()).toMatch(/^running-times-\d{4}-\d{2}-\d{2}\.zip$/);
    const archived = await readFile((await zipped.path())!);
    const members = unzipSync(archived);
    expect(Object.keys(members).filter((name) => name.startsWith('activities/'))).toHaveLength(2);
    await other.reload();
    await upload(other, 'running-times.zip', archived);
    await other.getByText('0 new runs, 2 tracks for stored runs, 1 duplicate, 0 skipped').waitFor();
    await other.getByRole('button', { name: 'Import 2 tracks' }).click();
    await other.getByText('0 runs imported, 2 tracks added, 1 duplicate, 0 skipped').waitFor();
  });
});
