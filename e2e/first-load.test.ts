/**
 * The built pages (`npm run build`, before these tests): what a first load fetches is named in the
 * page, not found a round trip later in a script (decisions 055 and 056).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../scripts/support/server-process.js';

const WEB = path.join(REPO_ROOT, 'dist', 'web');
const PAGES = ['index.html', 'dashboard.html', 'run-page.html'];

const read = (file: string) => fs.readFileSync(path.join(WEB, file), 'utf8');
const preloads = (page: string) =>
  [...read(page).matchAll(/<link rel="modulepreload" crossorigin href="\/([^"]+)">/g)].map((match) => match[1]);

describe("the built pages' first load", () => {
  it('names every chunk the entry chunk imports (the bundler runtime too) on every page', () => {
    const entry = /<script type="module" crossorigin src="\/(assets\/index-[^"]+\.js)">/.exec(read('index.html'))![1]!;
    const imports = [
      ...read(entry).matchAll(/(?:^|[;}\s])import\s*(?:[^"'`;]*?from\s*)?["']\.\/([^"']+\.js)["']/g),
    ].map((match) => `assets/${match[1]}`);
    expect(imports.length).toBeGreaterThan(0);
    for (const page of PAGES) expect(preloads(page), page).toEqual(expect.arrayContaining(imports));
  });

  it("names, on a first screen's page, its catalogs in each language but English, all of them built", () => {
    for (const page of ['dashboard.html', 'run-page.html']) {
      const named = /<script type="application\/json" id="screen-texts">([^<]*)<\/script>/.exec(read(page));
      const texts = JSON.parse(named![1]!) as Record<string, string[]>;
      expect(Object.keys(texts).sort(), page).toEqual(['de', 'es', 'fr', 'it', 'nl']);
      for (const files of Object.values(texts)) {
        // The screens' namespaces in one chunk a language, and the entry's.
        expect(files.length, page).toBeLessThanOrEqual(3);
        for (const file of files) expect(fs.existsSync(path.join(WEB, file)), file).toBe(true);
      }
    }
  });
});
