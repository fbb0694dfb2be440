/** The axe scan every journey runs: WCAG 2.1 A/AA and best practices, serious and critical violations only. */
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { settled } from './journey.js';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

interface Violation {
  id: string;
  help: string;
  impact?: string | null;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe on the page as it is now (after pending requests); returns the serious and critical violations, readably.
 * axe runs in the page itself (`axe.run`, violations only): the app has no frames, and `@axe-core/playwright`'s
 * partial runs, finished in a fresh blank page, took three times as long (about 1 s against 0.3 s a scan), which
 * on `every-page`'s some two hundred scans was CI's longest wait.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await settled(page);
  // Colours that are still moving (Bootstrap's buttons ease into a new theme over 0.15 s) would be read
  // half-way: the scan waits for every transition and finite animation to end (a spinner's never does).
  await page.evaluate(`Promise.race([
    Promise.all(document.getAnimations()
      .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
      .map((animation) => animation.finished.catch(() => undefined))),
    new Promise((resolve) => setTimeout(resolve, 2000)),
  ])`);
  if (!(await page.evaluate<boolean>("typeof window.axe === 'object'"))) await page.evaluate(axe.source);
  const violations = await page.evaluate<Violation[]>(
    `axe.run(document, ${JSON.stringify({ runOnly: { type: 'tag', values: TAGS }, resultTypes: ['violations'] })})` +
      '.then((results) => results.violations)',
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
}

/**
 * Axe clean in the light and in the dark theme: the account keeps the `auto` theme, which follows the
 * system's, so each is scanned once the page has taken it. Ends in the light theme.
 */
export async function expectCleanInBothThemes(page: Page, what: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect
      .poll(() => page.evaluate<string | null>("document.documentElement.getAttribute('data-bs-theme')"))
      .toBe(colorScheme);
    expect(await seriousViolations(page), `${what} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
