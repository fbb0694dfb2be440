/**
 * The app in the runner's language (CONTRACT.md §19), as a German and a French runner meet it: the
 * browser's language chooses it, every screen speaks it, numbers take the decimal comma, dates the
 * language's short form, and what the server says (an error, an import row's reason) arrives in it.
 * The texts expected are the catalogs' (web/i18n/messages) and the server's (core/i18n/server).
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../core/i18n/server/translate.js';
import { gpxFile } from '../server/test/imports/fixtures.js';
import { apiAddEntry, apiRegister, callApi, isoDay, settled, startJourney, type Journey } from './support/journey.js';

const catalog = (lang: string) =>
  JSON.parse(readFileSync(new URL(`../web/i18n/messages/${lang}.json`, import.meta.url), 'utf8')) as Record<
    string,
    string
  >;
const de = catalog('de');
const fr = catalog('fr');
/** A message with its simple placeholders filled (no plurals). */
const text = (messages: Record<string, string>, key: string, values: Record<string, string | number> = {}) => {
  const message = messages[key];
  if (message === undefined) throw new Error(`no message ${key}`);
  return message.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
};
/** A `YYYY-MM-DD` day as German (DD.MM.YYYY) or French (DD/MM/YYYY) short dates write it. */
const germanDate = (ymd: string) => ymd.split('-').reverse().join('.');
const frenchDate = (ymd: string) => ymd.split('-').reverse().join('/');

describe('the app in German and in French', () => {
  let journey: Journey;

  beforeAll(async () => {
    journey = await startJourney();
  });

  afterAll(async () => {
    await journey?.close();
  });

  it('a German runner registers, types 5,2 km and reads the run in German', async () => {
    const { baseUrl } = journey.server;
    const page = await journey.newPage({ locale: 'de-DE' });
    await apiRegister(baseUrl, { name: 'Vergeben', email: 'vergeben@example.com', password: 'passwort-123' });

    await page.goto('/');
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('de');
    await page.getByRole('main').getByRole('link', { name: 'Registrieren' }).click();
    await page.getByRole('heading', { level: 1, name: 'Registrieren' }).waitFor();
    expect(await page.title()).toBe('Registrieren · Running Times');
    await page.getByLabel(de['register.name']!, { exact: true }).fill('Lena Läuferin');
    await page.getByLabel(de['register.email']!).fill('vergeben@example.com');
    await page.getByLabel(de['register.password']!, { exact: true }).fill('passwort-123');
    await page.getByLabel(de['register.confirmPassword']!).fill('passwort-123');
    await page.getByRole('button', { name: de['register.submit'] }).click();
    // The server's refusal, in German: the same key and status as in English.
    await page.getByText(translate('The email has already been taken.', 'de')).first().waitFor();
    await page.getByLabel(de['register.email']!).fill('lena@example.com');
    await page.getByRole('button', { name: de['register.submit'] }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { level: 1, name: de['dashboard.title'] }).waitFor();
    const later = page.getByRole('button', { name: de['dashboard.preferences.notNow'] });
    if (await later.isVisible()) await later.click();

    await page.goto('/entry/new');
    await page.getByRole('heading', { level: 1, name: de['entries.new.title'] }).waitFor();
    const day = isoDay(1);
    await page.getByLabel(de['entries.form.date']!, { exact: true }).fill(day);
    await page.getByLabel(text(de, 'entries.form.distance', { unit: 'km' })).fill('5,2');
    await page.getByLabel(de['entries.form.minutes']!).fill('26');
    await page.getByRole('button', { name: de['entries.form.submit'] }).click();
    await page.getByText(de['entries.created']!).waitFor();

    const token = await page.evaluate<string>("window.localStorage.getItem('access_token')");
    const listed = await callApi(baseUrl, 'GET', '/entry', { token });
    const run = (listed.body.entries as { data: { id: number; distance: number }[] }).data[0]!;
    expect(run.distance).toBe(5.2);

    await page.goto('/entries');
    const row = page.getByRole('row', { name: new RegExp(germanDate(day).replace(/\./g, '\\.')) });
    await expect.poll(() => row.textContent()).toContain('5,20');
    expect(await row.textContent()).toContain('12,00'); // km/h
    expect(await row.textContent()).toContain('00:26:00');

    await page.goto(`/entry/${run.id}`);
    await settled(page);
    const main = page.getByRole('main');
    await expect.poll(() => main.textContent()).toContain(germanDate(day));
    // The distance as stored (5,2), the speed and pace to two decimals, all with the comma.
    expect(await main.textContent()).toContain(`${text(de, 'run.numbers.distance', { unit: 'km' })}5,2`);
    expect(await main.textContent()).toContain('12,00');
    expect((await main.textContent())!.replaceAll(germanDate(day), '')).not.toMatch(/\d\.\d/);

    // A run that is not there: the page says so, and the server's message arrives in German.
    await page.goto('/entry/999999');
    await page.getByRole('heading', { level: 1, name: de['run.notFound.title'] }).waitFor();
    await page.getByText(translate('Not found.', 'de'), { exact: true }).waitFor();
    expect(translate('Not found.', 'de')).not.toBe('Not found.');
    await page.context().close();
  });

  it('a French runner reads the weekly report and previews an import in French', async () => {
    const { baseUrl } = journey.server;
    const page: Page = await journey.newPage({ locale: 'fr-FR' });
    const runner = await apiRegister(baseUrl, { name: 'Inès', email: 'ines@example.com', password: 'mot-de-passe-1' });
    const day = isoDay(0);
    await apiAddEntry(baseUrl, runner.token, { date: day, distance: 10.5, time: '00:52:30' });
    await page.goto('/policy');
    await page.evaluate(`window.localStorage.setItem('access_token', ${JSON.stringify(runner.token)})`);

    await page.goto('/report/weekly');
    await page.getByRole('heading', { level: 1, name: fr['reports.weekly.title'] }).waitFor();
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('fr');
    const table = page.getByRole('table');
    await expect.poll(() => table.textContent()).toContain('10,50');
    expect(await table.textContent()).toContain('12,00'); // km/h
    expect(await table.textContent()).toMatch(/\d{2}\/\d{2}\/\d{4}/);

    await page.goto('/data');
    await page.getByRole('heading', { name: fr['data.import.title'] }).waitFor();
    const start = new Date(`${isoDay(2)}T07:00:00Z`);
    const points = Array.from({ length: 120 }, (_, t) => ({ t: t * 10, lat: 45.76 + t * 0.0003, lon: 4.83 }));
    await page.getByLabel(fr['data.import.drop']!).setInputFiles([
      {
        name: 'footing.gpx',
        mimeType: 'application/gpx+xml',
        buffer: Buffer.from(gpxFile({ start, segments: [points] })),
      },
      {
        name: 'velo.gpx',
        mimeType: 'application/gpx+xml',
        buffer: Buffer.from(gpxFile({ start, type: 'cycling', segments: [points] })),
      },
    ]);
    await page.getByRole('button', { name: fr['data.import.preview'] }).click();
    const rows = page.getByRole('table', { name: fr['data.preview.caption'] });
    await rows.getByRole('columnheader', { name: fr['data.preview.status'] }).waitFor();
    // The skipped file's reason, as the server wrote it in French.
    const reason = translate('Not a run (cycling).', 'fr');
    expect(reason).not.toBe('Not a run (cycling).');
    await expect.poll(() => rows.textContent()).toContain(reason);
    expect(await rows.textContent()).toContain(frenchDate(isoDay(2)));
    expect(await rows.textContent()).toMatch(/\d,\d{2}/);
    await page.context().close();
  });
});
