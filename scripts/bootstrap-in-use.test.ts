import fs from 'node:fs';
import path from 'node:path';
import postcss from 'postcss';
import { describe, expect, it } from 'vitest';
import { bootstrapInUse } from './bootstrap-in-use.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const BOOTSTRAP = path.join(ROOT, 'node_modules', 'bootstrap', 'dist', 'css', 'bootstrap.min.css');

/** Every source file of the web app but its tests. */
function sources(dir = path.join(ROOT, 'web')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe("Bootstrap's stylesheet in the build", () => {
  it('keeps the rules of the classes and themes the app names, and drops the others', async () => {
    const css = fs.readFileSync(BOOTSTRAP, 'utf8');
    const { css: kept } = await postcss([bootstrapInUse()]).process(css, { from: BOOTSTRAP });
    expect(kept.length).toBeLessThan(css.length / 2);
    // Named whole in the code, some only in a map of tones (progress bars, toasts, confirmations).
    const has = (text: string, selector: string) => text.includes(`${selector}{`) || text.includes(`${selector},`);
    const wanted = ['.btn-danger', '.text-bg-warning', '.bg-secondary', '.navbar-toggler', '.visually-hidden'];
    // The dark theme (web/public/theme.js) and what every page needs.
    wanted.push('[data-bs-theme=dark]', 'body');
    expect(wanted.filter((selector) => !has(kept, selector))).toEqual([]);
    // Nothing of the app is a carousel or an accordion.
    expect(
      ['.carousel-item', '.accordion-button'].filter((selector) => has(css, selector) && !has(kept, selector)),
    ).toEqual(['.carousel-item', '.accordion-button']);
    // Another stylesheet (ours, the map library's) is left whole.
    const other = path.join(ROOT, 'web', 'styles.css');
    const { css: ours } = await postcss([bootstrapInUse()]).process('.carousel-item{color:red}', { from: other });
    expect(ours).toBe('.carousel-item{color:red}');
  });

  it('loses no rule to a class named in parts: the code names every class of Bootstrap whole', () => {
    const prefixes = new Set(
      [...fs.readFileSync(BOOTSTRAP, 'utf8').matchAll(/\.([a-z]+(?:-[a-z]+)*)-[a-z0-9]/g)].map((match) => match[1]!),
    );
    const inParts: string[] = [];
    for (const file of sources()) {
      const text = fs.readFileSync(file, 'utf8');
      // `btn-${tone}` in a template, or 'btn-' + tone.
      for (const match of text.matchAll(/\b([a-z]+(?:-[a-z]+)*)-(?:\$\{|['"]\s*\+)/g)) {
        if (prefixes.has(match[1]!)) inParts.push(`${path.relative(ROOT, file)}: ${match[0]}`);
      }
    }
    expect(inParts).toEqual([]);
  });
});
