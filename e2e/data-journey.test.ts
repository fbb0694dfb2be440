/**
 * "Your data" in the browser: a Strava export zip is previewed row by row and imported, its
 * runs show in the list, the CSV export downloads, and importing it into another account
 * recreates the runs once (a second time, nothing new); the zip export then gives that account
 * the runs' tracks. The inbox folder: turned on in its panel, files written into it on the
 * server's disk show in its recent rows (a hostile one as failed, with its reason) and their runs
 * in the list. Axe-clean in both themes and usable 375 px wide.
 */
import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gz, stravaCsv, zip } from '../server/test/imports/fixtures.js';
import { fitActivity } from '../server/test/imports/fit-fixtures.js';
import { expectCleanInBothThemes, seriousViolations } from './support/axe.js';
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

  /** The server's INBOX_DIR: the test writes into a runner's folder there as a sync tool would. */
  const inboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-inbox-'));

  beforeAll(async () => {
    // Uploads here are a few KiB: 1 MiB lets a larger inbox file fail as too large.
    journey = await startJourney({ INBOX_DIR: inboxDir, IMPORT_MAX_BYTES: String(1024 * 1024) });
    await apiRegister(journey.server.baseUrl, ann);
    await apiRegister(journey.server.baseUrl, ben);
  });

  afterAll(async () => {
    await journey?.close();
    fs.rmSync(inboxDir, { recursive: true, force: true });
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

  it('turns the inbox folder on; files written into it show in its recent rows and their runs in the list', async () => {
    const page = await journey.newPage({ width: 375, height: 800 });
    await loginViaUi(page, ann.email, ann.password);
    await page.goto('/data');
    await page.getByRole('heading', { name: 'Inbox folder' }).waitFor();
    await page.getByRole('button', { name: 'Turn on' }).click();
    const folder = page.getByLabel('Your folder on the server');
    await folder.waitFor();
    const key = /^INBOX_DIR\/([a-z0-9]{24})\/$/.exec(await folder.inputValue())?.[1];
    expect(key).toBeDefined();
    const dir = path.join(inboxDir, key!);
    expect(fs.readdirSync(dir).sort()).toEqual(['done', 'failed']);

    // As a sync tool writes: under a temporary name, then renamed.
    const drop = (name: string, bytes: Uint8Array) => {
      fs.writeFileSync(path.join(dir, `.${name}.tmp`), bytes);
      fs.renameSync(path.join(dir, `.${name}.tmp`), path.join(dir, name));
    };
    const run = fitActivity({ start: new Date('2024-04-02T06:15:00Z'), metres: 12_345, timerSeconds: 3900 });
    drop('lunch-run.fit', run);
    drop('damaged.fit', run.subarray(0, 60));
    drop('huge.gpx', Buffer.alloc(1024 * 1024 + 1, 32));
    const recent = page.getByRole('table', { name: 'Recent files' });
    const shown = async () => {
      for (const name of ['lunch-run.fit', 'damaged.fit', 'huge.gpx'])
        if (!(await recent.getByText(name).isVisible())) return false;
      return true;
    };
    // The panel reads its rows again every 15 s; a reload reads them at once.
    for (let i = 0; !(await shown()); i++) {
      expect(i, 'the inbox rows within 60 s').toBeLessThan(30);
      await page.waitForTimeout(2000);
      await page.reload();
      await page.getByRole('heading', { name: 'Inbox folder' }).waitFor();
    }
    const row = (name: string) => recent.getByRole('row').filter({ hasText: name });
    const created = row('lunch-run.fit');
    await created.getByRole('link', { name: 'Created' }).waitFor();
    // A hostile file: failed as a whole, with its reason; a damaged one: skipped, with its reason.
    await row('huge.gpx').getByText('Failed').waitFor();
    await row('huge.gpx')
      .getByText('The file is larger than 1 MiB, the most one import may be: it was not imported.')
      .waitFor();
    await row('damaged.fit').getByText('Skipped').waitFor();
    expect((await row('damaged.fit').getByRole('cell').nth(3).innerText()).trim().length).toBeGreaterThan(5);
    expect(fs.existsSync(path.join(dir, 'done', 'lunch-run.fit.txt'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'failed', 'damaged.fit.txt'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'failed', 'huge.gpx.txt'))).toBe(true);
    await expectCleanInBothThemes(page, '/data inbox');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);

    // The created row links to its run; the run is in the list.
    await created.getByRole('link', { name: 'Created' }).click();
    await page.waitForURL(/\/entry\/\d+$/);
    await page.goto('/entries');
    await page.getByText(shownDate('2024-04-02')).first().waitFor();
  });
});
