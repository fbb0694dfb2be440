import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';
import { FIRST_SCREENS } from '../web/app/first-screens.js';
import { SCREEN_TEXTS_ID } from '../web/app/screen-texts.js';
import { catalogLanguage, isTexts, PSEUDO } from './i18n-catalogs.js';

/**
 * The modules of the screens a phone opens first and most (the dashboard, a run's page) in a few
 * chunks: those only the dashboard needs, those only the run page needs, and those both need,
 * beyond the entry chunk and the sign-in screens' chunks.
 *
 * Left to the bundler, a screen's modules are split by which screens share them: the dashboard's
 * chunk came with 32 others (45 scripts in its first load), the run page's with 27. On a slow
 * network (Lighthouse's mobile setting, HTTP/1.1) a browser fetches six at a time, each after a
 * round trip, and nothing of the screen shows before the last is in; each chunk also costs the main
 * thread its request and its link. The modules `/login`, `/register` and `/` need are left out, so
 * that their chunks (and the `/login` budget, decision 012) do not change; so are those already in
 * the entry chunk. What these chunks hold then imports only them, the entry chunk and the sign-in
 * screens' chunks, which never import them back: no import cycle between chunks (the groups take no
 * dependencies of their own, `includeDependenciesRecursively`). Another screen that uses some of
 * these modules loads their chunk (decision 054).
 */
const ROOT = path.resolve(import.meta.dirname, '..', 'web');
const ENTRY = path.join(ROOT, 'main.tsx');
const SIGN_IN_SCREENS = ['home', 'login', 'register'].map((name) => path.join(ROOT, 'app', 'routes', `${name}.tsx`));
const SCREENS = FIRST_SCREENS.map((screen) => ({
  ...screen,
  file: path.join(ROOT, 'app', 'routes', `${screen.route}.tsx`),
}));
/** What every first screen's page names with the screen's chunks: the runner's menus and the screen's first answers (routes.tsx). */
const WITH_EVERY_SCREEN = [
  path.join(ROOT, 'app', 'layout', 'runner-menus.tsx'),
  path.join(ROOT, 'app', 'first-answers.ts'),
];
/** The file that tells the server which page answers which addresses (server/app.ts). */
export const SCREEN_PAGES_FILE = 'screen-pages.json';
/** A chunk for each set of these screens that may share modules: `dashboard`, `run-page`, `dashboard+run-page`. */
const CHUNKS = SCREENS.reduce<string[][]>(
  (sets, screen) => [...sets, ...sets.map((set) => [...set, screen.name])],
  [[]],
)
  .filter((set) => set.length > 0)
  .map((set) => set.join('+'));

/** `from` and everything reached from it by `next`, each once. */
function closure(from: readonly string[], next: (item: string) => readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...from];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (seen.has(item)) continue;
    seen.add(item);
    stack.push(...next(item));
  }
  return seen;
}

export function screenChunks() {
  const imports = new Map<string, readonly string[]>();
  const lazyImports = new Map<string, readonly string[]>();
  const plugin: Plugin = {
    name: 'screen-chunks',
    apply: 'build',
    moduleParsed(info) {
      imports.set(info.id, info.importedIds);
      lazyImports.set(info.id, info.dynamicallyImportedIds);
    },
    writeBundle(options, bundle) {
      writeScreenPages(options.dir!, bundle);
    },
  };
  /** Every module `from` imports, itself included: statically, or also lazily (`import()`). */
  const reachable = (from: readonly string[], lazily = false): Set<string> =>
    closure(from, (id) => [...(imports.get(id) ?? []), ...(lazily ? (lazyImports.get(id) ?? []) : [])]);
  // Computed at the first question, once the module graph is whole: what the entry and the sign-in
  // screens bring, and each other module's chunk, named by the screens that need it.
  let takenSet: Set<string> | null = null;
  const taken = (): Set<string> => (takenSet ??= reachable([ENTRY, ...SIGN_IN_SCREENS]));
  let chunkOf: Map<string, string> | null = null;
  const chunkNamed = (id: string): string | undefined => {
    if (!chunkOf) {
      chunkOf = new Map();
      const needs = SCREENS.map((screen) => ({ ...screen, now: reachable([screen.file]) }));
      for (const screen of needs) {
        for (const module of screen.now) {
          if (taken().has(module)) continue;
          const named = chunkOf.get(module);
          chunkOf.set(module, named ? `${named}+${screen.name}` : screen.name);
        }
      }
      // A module one screen needs at once and another later (the charts' colours: the run page's
      // charts and the dashboard's lazy chart) is left to the bundler: in the first screen's chunk,
      // the other would load that whole chunk for it.
      for (const screen of needs) {
        for (const module of reachable([screen.file], true)) {
          if (!screen.now.has(module) && chunkOf.has(module)) chunkOf.delete(module);
        }
      }
    }
    return chunkOf.get(id);
  };
  // The namespaces of texts the first screens and what comes with them define, beyond the entry's
  // and the sign-in screens'.
  let screensTexts: Set<string> | null = null;
  const textsOfScreens = (): Set<string> => {
    screensTexts ??= new Set(
      [...reachable([...SCREENS.map((screen) => screen.file), ...WITH_EVERY_SCREEN])].filter(
        (id) => isTexts(id) && !taken().has(id),
      ),
    );
    return screensTexts;
  };
  const groups = [
    ...CHUNKS.map((name) => ({
      name: `${name.replaceAll('+', '-and-')}-modules`,
      test: (id: string) => chunkNamed(id) === name,
      includeDependenciesRecursively: false,
    })),
    // Their catalogs in one chunk a language: a German dashboard fetched 11, and on a phone's network
    // (HTTP/1.1, six at a time, a round trip each) its largest paint came 200-300 ms after the
    // English one's (decision 056).
    {
      name: (id: string) => {
        const language = catalogLanguage(id);
        return language !== null && textsOfScreens().has(id.slice(0, id.lastIndexOf('/')))
          ? `${language}-screens`
          : null;
      },
      includeDependenciesRecursively: false,
    },
  ];
  return { plugin, groups };
}

/**
 * A page for each first screen: index.html naming the screen's chunks, and those of the runner's
 * menus and of the screen's first answers, in `<link rel="modulepreload">`. With index.html alone,
 * the browser learns of them only once the entry chunk has come and run: on Lighthouse's slow phone,
 * the dashboard's largest paint came 0.5 s later (3.3 s against 2.8 s, decision 055). The server
 * answers the screen's addresses with its page (`screen-pages.json`); a visitor who is not signed in
 * is sent on to /login, with a few chunks loaded for nothing.
 */
export function writeScreenPages(dir: string, bundle: Rolldown.OutputBundle): void {
  const html = bundle['index.html'];
  if (html?.type !== 'asset') return;
  const chunks = Object.values(bundle).filter((file): file is Rolldown.OutputChunk => file.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  /** A chunk's file and every file it imports, statically. */
  const withImports = (fileNames: readonly string[]): Set<string> =>
    closure(fileNames, (fileName) => byFile.get(fileName)?.imports ?? []);
  const chunkOf = (module: string) => chunks.find((chunk) => chunk.moduleIds.includes(module))?.fileName;
  const entry = withImports(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
  const pages = SCREENS.map((screen) => {
    const own = [screen.file, ...WITH_EVERY_SCREEN].map(chunkOf).filter((file) => file !== undefined);
    const loaded = withImports(own);
    const preloads = [...loaded]
      .filter((file) => !entry.has(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
      .join('');
    // The catalogs of every namespace this code defines, by language (web/i18n/runtime.ts loads them
    // when the code runs, for a reader of another language than English).
    const texts: Record<string, string[]> = {};
    for (const file of new Set([...entry, ...loaded])) {
      for (const lazy of byFile.get(file)?.dynamicImports ?? []) {
        const language = catalogLanguage(byFile.get(lazy)?.moduleIds[0] ?? '');
        if (language !== null && language !== PSEUDO && !texts[language]?.includes(`/${lazy}`))
          (texts[language] ??= []).push(`/${lazy}`);
      }
    }
    const named = `<script type="application/json" id="${SCREEN_TEXTS_ID}">${JSON.stringify(texts)}</script>`;
    const page = `${screen.name}.html`;
    fs.writeFileSync(path.join(dir, page), String(html.source).replace('</head>', `${preloads}${named}</head>`));
    return { path: screen.path, page };
  });
  fs.writeFileSync(path.join(dir, SCREEN_PAGES_FILE), `${JSON.stringify(pages, null, 2)}\n`);
}
