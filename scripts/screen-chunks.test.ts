import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { writeScreenPages } from './screen-chunks.js';

const web = path.resolve(import.meta.dirname, '..', 'web');

function chunk(
  fileName: string,
  moduleIds: string[],
  imports: string[] = [],
  isEntry = false,
  dynamicImports: string[] = [],
) {
  return {
    type: 'chunk',
    fileName,
    moduleIds,
    imports,
    isEntry,
    dynamicImports,
  } as unknown as Rolldown.OutputChunk;
}

/** A namespace's catalog in `language`, as scripts/i18n-catalogs.ts makes it: a lazy chunk. */
const catalog = (namespace: string, language: string) =>
  chunk(`assets/${language}-${namespace}.js`, [`\0virtual:i18n/${namespace}/${language}`]);

describe("the first screens' pages", () => {
  it("name each screen's chunks, the runner's menus and the first answers, not what the entry chunk brings", () => {
    const bundle = {
      'index.html': { type: 'asset', fileName: 'index.html', source: '<html><head><title>t</title></head></html>' },
      'assets/index.js': chunk('assets/index.js', [path.join(web, 'main.tsx')], ['assets/runtime.js'], true),
      'assets/runtime.js': chunk('assets/runtime.js', ['\0runtime']),
      'assets/dashboard.js': chunk(
        'assets/dashboard.js',
        [path.join(web, 'app', 'routes', 'dashboard.tsx')],
        ['assets/dashboard-modules.js', 'assets/runtime.js'],
      ),
      'assets/dashboard-modules.js': chunk(
        'assets/dashboard-modules.js',
        [path.join(web, 'x.ts')],
        ['assets/index.js'],
      ),
      'assets/runner-menus.js': chunk('assets/runner-menus.js', [path.join(web, 'app', 'layout', 'runner-menus.tsx')]),
      'assets/first-answers.js': chunk(
        'assets/first-answers.js',
        [path.join(web, 'app', 'first-answers.ts')],
        ['assets/index.js'],
      ),
      'assets/run-page-modules.js': chunk('assets/run-page-modules.js', [path.join(web, 'app', 'routes', 'entry.tsx')]),
    } as unknown as Rolldown.OutputBundle;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-pages-'));
    try {
      writeScreenPages(dir, bundle);
      const preloads = (page: string) =>
        [
          ...fs
            .readFileSync(path.join(dir, page), 'utf8')
            .matchAll(/<link rel="modulepreload" crossorigin href="\/([^"]+)">/g),
        ]
          .map((match) => match[1])
          .sort();
      expect(preloads('dashboard.html')).toEqual([
        'assets/dashboard-modules.js',
        'assets/dashboard.js',
        'assets/first-answers.js',
        'assets/runner-menus.js',
      ]);
      expect(preloads('run-page.html')).toEqual([
        'assets/first-answers.js',
        'assets/run-page-modules.js',
        'assets/runner-menus.js',
      ]);
      expect(fs.readFileSync(path.join(dir, 'dashboard.html'), 'utf8')).toMatch(/<title>t<\/title><link [^]*<\/head>/);
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'screen-pages.json'), 'utf8'))).toEqual([
        { path: '^/dashboard$', page: 'dashboard.html' },
        { path: '^/entry/\\d+$', page: 'run-page.html' },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('name, for each language but English, the catalogs of the code they load, and no others', () => {
    const bundle = {
      'index.html': { type: 'asset', fileName: 'index.html', source: '<html><head></head></html>' },
      'assets/index.js': chunk('assets/index.js', [path.join(web, 'main.tsx')], [], true, [
        'assets/de-shell.js',
        'assets/pseudo-shell.js',
        'assets/login.js',
      ]),
      'assets/login.js': chunk('assets/login.js', [path.join(web, 'app', 'routes', 'login.tsx')], [], false, [
        'assets/de-auth.js',
      ]),
      'assets/dashboard.js': chunk(
        'assets/dashboard.js',
        [path.join(web, 'app', 'routes', 'dashboard.tsx')],
        ['assets/dashboard-modules.js'],
      ),
      'assets/dashboard-modules.js': chunk('assets/dashboard-modules.js', [path.join(web, 'x.ts')], [], false, [
        'assets/de-dashboard.js',
        'assets/fr-dashboard.js',
      ]),
      'assets/run-page-modules.js': chunk(
        'assets/run-page-modules.js',
        [path.join(web, 'app', 'routes', 'entry.tsx')],
        [],
        false,
        ['assets/de-tracks.js'],
      ),
      ...Object.fromEntries(
        [
          catalog('shell', 'de'),
          catalog('shell', 'pseudo'),
          catalog('auth', 'de'),
          catalog('dashboard', 'de'),
          catalog('dashboard', 'fr'),
          catalog('tracks', 'de'),
        ].map((file) => [file.fileName, file]),
      ),
    } as unknown as Rolldown.OutputBundle;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-pages-'));
    try {
      writeScreenPages(dir, bundle);
      const texts = (page: string) => {
        const html = fs.readFileSync(path.join(dir, page), 'utf8');
        const named = /<script type="application\/json" id="screen-texts">([^<]*)<\/script><\/head>/.exec(html);
        return JSON.parse(named![1]!) as Record<string, string[]>;
      };
      expect(texts('dashboard.html')).toEqual({
        de: ['/assets/de-shell.js', '/assets/de-dashboard.js'],
        fr: ['/assets/fr-dashboard.js'],
      });
      expect(texts('run-page.html')).toEqual({ de: ['/assets/de-shell.js', '/assets/de-tracks.js'] });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
