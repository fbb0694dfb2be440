import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { i18nCatalogs } from './scripts/i18n-catalogs.js';

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

/** The screens a first load opens (see modulePreload below). */
const FIRST_SCREENS = /(^|\/)(home|login|register|dashboard)-[^/]*\.js$/;

export default defineConfig(({ command }) => ({
  root: 'web',
  publicDir: 'public',
  plugins: [react(), i18nCatalogs(), reactRouterTreeShaking],
  resolve: {
    alias:
      command === 'build' && existsSync(reactRouterProduction)
        ? [{ find: /^react-router$/, replacement: reactRouterProduction }]
        : [],
  },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    modulePreload: {
      // Browsers without native <link rel="modulepreload"> still load every chunk, only later.
      polyfill: false,
      // A lazy screen's own imports are preloaded with it only for the screens a first load opens
      // (home, login, register, dashboard); another screen's imports load one round trip later. The
      // list of every screen's chunks would sit in the entry chunk: 0.9 KiB gzipped of the /login
      // budget (decision 012).
      resolveDependencies: (chunk, deps) => (FIRST_SCREENS.test(chunk) ? deps : []),
    },
    rolldownOptions: {
      output: {
        // Everything the entry imports statically (React, the router, the query client, the shell) in one
        // file: one request and one gzip stream for the first screen. Screens stay lazy chunks.
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
}));
