import { describe, expect, it } from 'vitest';

/**
 * The modules a fresh visit to /login or /register runs must not load zod: the
 * schemas of core/schemas.ts may only be imported with `import type` there.
 * This follows the static imports (the ones that are part of the same
 * download) from the entry point and the two guest screens.
 */
const sources = import.meta.glob<string>(['/web/**/*.{ts,tsx}', '/core/**/*.ts', '!**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

// `import … from`, `export … from` and bare `import '…'`, skipping `import type` / `export type`.
const RUNTIME_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

/** The module a relative import points to; null for a package, 'asset' for a stylesheet or image. */
function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  if (/\.(css|svg|png|json)$/.test(specifier)) return 'asset';
  const parts = from.split('/').slice(0, -1);
  for (const part of specifier.replace(/\.js$/, '').split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  const base = parts.join('/');
  const found = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base].find((candidate) => candidate in sources);
  if (!found) throw new Error(`${from} imports ${specifier}, which was not found.`);
  return found;
}

/** Every module and package loaded with `entries`, each with the first module that imports it. */
function staticGraph(entries: string[]) {
  const modules = new Map<string, string>(entries.map((entry) => [entry, '(entry)']));
  const packages = new Map<string, string>();
  const queue = [...entries];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const [, specifier] of (sources[file] ?? '').matchAll(RUNTIME_IMPORT)) {
      if (!specifier) continue;
      const target = resolve(file, specifier);
      if (target === 'asset') continue;
      if (target === null) {
        if (!packages.has(specifier)) packages.set(specifier, file);
      } else if (!modules.has(target)) {
        modules.set(target, file);
        queue.push(target);
      }
    }
  }
  return { modules, packages };
}

describe('the first load of /login and /register', () => {
  const graph = staticGraph(['/web/main.tsx', '/web/app/routes/login.tsx', '/web/app/routes/register.tsx']);

  it('follows the imports of the app shell and the guest screens', () => {
    expect([...graph.modules.keys()]).toEqual(
      expect.arrayContaining(['/web/app/app.tsx', '/web/lib/api-client.ts', '/web/features/auth/api/login.ts']),
    );
    expect([...graph.packages.keys()]).toEqual(expect.arrayContaining(['react', 'react-router']));
  });

  it('carries the texts of the shell and the guest screens only, in English (CONTRACT.md §23)', () => {
    // Each `virtual:i18n/<namespace>` holds its English texts; the other languages are lazy chunks of it.
    const texts = [...graph.packages.keys()].filter((name) => name.startsWith('virtual:i18n/')).sort();
    expect(texts).toEqual(['virtual:i18n/login', 'virtual:i18n/register', 'virtual:i18n/shell']);
  });

  it('imports neither zod nor the zod schemas at runtime', () => {
    expect(graph.modules.get('/core/schemas.ts')).toBeUndefined();
    expect([...graph.packages.keys()].filter((name) => name === 'zod' || name.startsWith('zod/'))).toEqual([]);
  });
});

describe('the map and chart libraries', () => {
  // Leaflet and Chart.js load with the map or the chart that needs them (CONTRACT.md §17), never
  // with a screen: every screen, the map page included, reaches them only through a dynamic import.
  const screens = Object.keys(sources).filter((file) => /^\/web\/app\/routes\/.*\.tsx$/.test(file));

  it.each(['leaflet', 'chart.js', 'react-chartjs-2'])('%s is in no static import of the shell or a screen', (name) => {
    expect(screens.length).toBeGreaterThan(10);
    const graph = staticGraph(['/web/main.tsx', ...screens]);
    expect(graph.packages.get(name)).toBeUndefined();
  });
});

/**
 * The app uses React Router in declarative mode. An import of a data router API
 * (createBrowserRouter, RouterProvider, loaders, useNavigation, redirect, …) would
 * bring the data router back into the first download.
 */
const DECLARATIVE_ROUTER_APIS = new Set([
  'BrowserRouter',
  'MemoryRouter',
  'Routes',
  'Route',
  'Navigate',
  'Outlet',
  'Link',
  'NavLink',
  'useHref',
  'useInRouterContext',
  'useLocation',
  'useMatch',
  'useNavigate',
  'useNavigationType',
  'useOutlet',
  'useOutletContext',
  'useParams',
  'useResolvedPath',
  'useRoutes',
  'useSearchParams',
  'createSearchParams',
  'generatePath',
  'matchPath',
]);

describe('the router', () => {
  it('is used in declarative mode only', () => {
    const ROUTER_IMPORT = /^\s*import\s+(?!type\s)\{([^}]*)\}\s+from\s+['"]react-router['"]/gm;
    const dataRouterApis: string[] = [];
    for (const [file, source] of Object.entries(sources)) {
      for (const [, names = ''] of source.matchAll(ROUTER_IMPORT)) {
        for (const name of names.split(',').map((part) => part.trim())) {
          if (name && !name.startsWith('type ') && !DECLARATIVE_ROUTER_APIS.has(name.split(/\s+as\s+/)[0] ?? '')) {
            dataRouterApis.push(`${file}: ${name}`);
          }
        }
      }
    }
    expect(dataRouterApis).toEqual([]);
    expect(sources['/web/app/app.tsx']).toContain('<BrowserRouter>');
  });
});
