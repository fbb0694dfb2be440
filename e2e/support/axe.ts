/** The axe scan every journey runs: WCAG 2.1 A/AA and best practices, serious and critical violations only. */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { settled } from './journey.js';

/** Runs axe on the page as it is now (after pending requests); returns the serious and critical violations, readably. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await settled(page);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
}
