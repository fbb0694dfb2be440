import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { bootstrapInUse } from './scripts/bootstrap-in-use.js';
import { i18nCatalogs } from './scripts/i18n-catalogs.js';
import { screenChunks } from './scripts/screen-chunks.js';

/**
 * React Router 7's package exports resolve to its development build in every
 * mode (remix-run/react-router#14102), so its dev-only warnings reach production.
 * The production build next to it differs only in leaving them out; production
 * bundles use it whenever the installed version still ships it.
 */
const reactRouterProduction = fileURLToPath(
  new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

/**
 * React Router's production build calls `React.forwardRef`/`createContext` at its top level without
 * a pure mark and sets `displayName` on the results, so the bundler keeps every component it
 * defines, used or not (its <Form>, fetcher forms, ...). Marking those calls pure and dropping the
 * display names (which only React's development tools read) lets the unused ones go: 1.3 KiB
 * gzipped of the /login budget (decision 035).
 */
const reactRouterTreeShaking = {
  name: 'react-router-tree-shaking',
  apply: 'build' as const,
  transform(code: string, id: string) {
    if (!id.includes('/react-router/dist/production/')) return null;
    return code
      .replace(/= (React\d*\.(?:forwardRef|createContext|memo)\()/g, '= /* @__PURE__ */ $1')
      .replace(/^\s*[\w$]+\.displayName = "[^"]*";$/gm, '');
  },
};

/**
 * The installable app (CONTRACT.md §20, decision 047): the manifest, and a service worker
 * (Workbox) that precaches the app shell and every chunk, so the app starts without a network.
 * Page loads are answered with the cached index.html (the router takes over); `/api/` and
 * `/ical/` are never the worker's: no route of it matches them, so every API call goes to the
 * network and no answer of one user is ever kept for another. web/main.tsx registers the worker
 * after the page has loaded (no register script in the first load of /login, decision 012).
 */
const installableApp = VitePWA({
  injectRegister: false,
  registerType: 'autoUpdate',
  includeAssets: ['favicon.svg', 'theme.js'],
  manifest: {
    id: '/',
    name: 'Running Times',
    short_name: 'Running Times',
    description: 'A running log that turns your runs into speed, pace and weekly progress.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#212529',
    theme_color: '#212529',
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,png,woff,woff2}'],
    // The map library and the charts are lazy chunks: offline, the pages that use them open too.
    maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
    navigateFallback: '/index.html',
    navigateFallbackDenylist: [/^\/api\//, /^\/ical\//],
    cleanupOutdatedCaches: true,
    // A new worker takes over at once, and the first one controls the page that registered it:
    // the app works offline from its first visit on.
    skipWaiting: true,
    clientsClaim: true,
    runtimeCaching: [],
  },
});

/** The screens a first load opens, and the signed-in runner's menus (see modulePreload below). */
const FIRST_SCREENS = /(^|\/)(home|login|register|dashboard|runner-menus)-[^/]*\.js$/;

const screens = screenChunks();

export default defineConfig(({ command }) => ({
  root: 'web',
  publicDir: 'public',
  plugins: [react(), i18nCatalogs(), reactRouterTreeShaking, screens.plugin, installableApp],
  resolve: {
    alias:
      command === 'build' && existsSync(reactRouterProduction)
        ? [{ find: /^react-router$/, replacement: reactRouterProduction }]
        : [],
  },
  css: { postcss: { plugins: command === 'build' ? [bootstrapInUse()] : [] } },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    modulePreload: {
      // Browsers without native <link rel="modulepreload"> still load every chunk, only later.
      polyfill: false,
      // A lazy screen's own imports are preloaded with it only for the screens a first load opens
      // (home, login, register, dashboard, and a runner's menus); another screen's imports load one
      // round trip later. The list of every screen's chunks would sit in the entry chunk: 0.9 KiB
      // gzipped of the /login budget (decision 012).
      // The entry's own imports (the bundler's runtime, which every chunk imports) are always named in
      // index.html: found only once the entry had come, they cost the first load a round trip.
      resolveDependencies: (chunk, deps, { hostType }) =>
        hostType === 'html' || FIRST_SCREENS.test(chunk) ? deps : [],
    },
    rolldownOptions: {
      output: {
        // Everything the entry imports statically (React, the router, the query client, the shell) in one
        // file: one request and one gzip stream for the first screen. Screens stay lazy chunks; the
        // dashboard and the run page each come in one (scripts/screen-chunks.ts).
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }, ...screens.groups] },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
}));
