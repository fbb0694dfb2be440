/**
 * Insights in the browser: the menu, the records with their predictions, the training load with
 * its warning explained, the year's heatmap by keyboard and its table, the dashboard's streaks and
 * warning; every screen axe-clean and usable 375 px wide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.js';
import {
  drawCharts,
  apiRegister,
  callApi,
  isoDay,
  loginViaUi,
  settled,
  shownDate,
  startJourney,
  type Journey,
} from './support/journey.js';

describe('insights journey', () => {
  let journey: Journey;
  let recordRunId: number;
  const email = 'ivy@example.com';
  const password = 'ivy-password-1';

  beforeAll(async () => {
    journey = await startJourney();
    const { baseUrl } = journey.server;
    const runner = await apiRegister(baseUrl, { name: 'Ivy Insight', email, password });
    const add = async (entry: Record<string, unknown>) => {
      const result = await callApi(baseUrl, 'POST', '/entry', { token: runner.token, body: entry });
      expect(result.status).toBe(201);
      return (result.body.entry as { id: number }).id;
    };
    // A first run long ago (load warnings wait 28 days after the first run, §10), outside every window.
    await add({ date: isoDay(40), distance: 3, time: '00:21:00', effort: 3 });
    // Runs only in the last week: the last 7 days are 4x the 4-week average.
    recordRunId = await add({ date: isoDay(1), distance: 5.1, time: '00:25:30', effort: 7 });
    await add({ date: isoDay(2), distance: 10, time: '00:55:00' });
    await add({ date: isoDay(3), distance: 8, time: '00:44:00', effort: 4 });
  });

  afterAll(async () => {
    await journey?.close();
  });

  it('shows records, predictions, load and the year through the Insights menu', async () => {
    const page = await journey.newPage();
    await loginViaUi(page, email, password);

    // The dashboard: streaks and the load warning in words.
    await page.getByRole('heading', { name: 'Streaks' }).waitFor();
    await page.getByText('Longest: 3 days').waitFor();
    await page
      .getByText(
        /Your load of the last 7 days is 4\.0x your weekly average of the last 28 days: injury risk rises above 1\.5\./,
      )
      .waitFor();
    expect(await seriousViolations(page), '/dashboard').toEqual([]);

    // Records, through the menu.
    await page.getByRole('button', { name: 'Insights' }).click();
    await page.getByRole('link', { name: 'Records' }).click();
    await page.getByRole('heading', { level: 1, name: 'Records' }).waitFor();
    const row = page.getByRole('row', { name: /5 km/ });
    await row.getByText('00:25:00').waitFor();
    await row.getByRole('cell', { name: '5.00', exact: true }).waitFor();
    // The run's date opens its page; its pencil, its edit form.
    expect(await row.getByRole('link', { name: shownDate(isoDay(1)), exact: true }).getAttribute('href')).toBe(
      `/entry/${recordRunId}`,
    );
    expect(await row.getByRole('link', { name: /^Edit / }).getAttribute('href')).toBe(`/entry/edit/${recordRunId}`);
    await page.getByRole('heading', { name: 'Race predictions' }).waitFor();
    await page.getByText(/VDOT \d+\.\d\), your best of the last 180 days/).waitFor();
    await page.getByRole('columnheader', { name: 'Riegel' }).waitFor();
    await page.locator('canvas').first().waitFor();
    expect(await seriousViolations(page), '/insights/records').toEqual([]);

    // Training load.
    await page.getByRole('button', { name: 'Insights' }).click();
    await page.getByRole('link', { name: 'Training load' }).click();
    await page.getByRole('heading', { level: 1, name: 'Training load' }).waitFor();
    await page
      .getByText('1 run of the last 28 days had no effort. It was counted as effort 5 (moderate).', { exact: false })
      .waitFor();
    await page.getByText(/injury risk rises above 1\.5/).waitFor();
    await drawCharts(page, 3);
    expect(await seriousViolations(page), '/insights/load').toEqual([]);

    // The year: a named, keyboard-reachable day; the table alternative.
    await page.getByRole('button', { name: 'Insights' }).click();
    await page.getByRole('link', { name: 'Year' }).click();
    await page.getByRole('heading', { level: 1, name: /^Year \d{4}$/ }).waitFor();
    const runDay = isoDay(1);
    if (runDay.slice(0, 4) === isoDay(0).slice(0, 4)) {
      const cell = page.getByRole('gridcell', { name: `${shownDate(runDay)}: 5.10 km, 1 run` });
      await cell.focus();
      await page.keyboard.press('ArrowDown');
      const focusedName = await page.evaluate<string | null>(
        "document.activeElement && document.activeElement.getAttribute('aria-label')",
      );
      expect(focusedName?.startsWith(`${shownDate(isoDay(0))}: `)).toBe(true);
      await page.getByText('The days with runs as a table').click();
      await page.getByRole('rowheader', { name: shownDate(runDay) }).waitFor();
    }
    expect(await seriousViolations(page), '/insights/year').toEqual([]);
  });

  it('fits a phone-sized screen', async () => {
    const page = await journey.newPage({ width: 375, height: 740 });
    await loginViaUi(page, email, password);
    for (const [path, heading] of [
      ['/insights/records', 'Records'],
      ['/insights/load', 'Training load'],
      ['/insights/year', /^Year/],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await settled(page);
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow, path).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page), `${path} at 375 px`).toEqual([]);
    }
  });
});
