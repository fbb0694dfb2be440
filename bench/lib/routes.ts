/**
 * Routes and segments for the bench (CONTRACT.md §22, §23): the long-history runner's 1,500
 * tracked runs grouped into routes by the rebuild (as `npm run tallies:rebuild` does), then 50
 * segments marked on their runs through the API, each matched against all of them by the
 * server's matching thread. Reports how long grouping took and how long the first segment took
 * to be matched (POST to `matching: false`), and the ids the bench's reads ask for.
 */
import { loadConfig } from '../../server/config.js';
import { contextOf } from '../../server/context.js';
import { openDatabase } from '../../server/db/connection.js';
import { rebuildRoutes } from '../../server/features/routes/routes.service.js';

export const BENCH_SEGMENTS = 50;

/** The routes of every tracked runner of the database, grouped from their tracks; its seconds. */
export async function groupSeededRoutes(databaseUrl: string): Promise<number> {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl });
  const db = openDatabase(databaseUrl, { poolSize: 1, backgroundCheckpoints: false });
  try {
    const started = performance.now();
    await rebuildRoutes(contextOf(db.kysely, config));
    return (performance.now() - started) / 1000;
  } finally {
    await db.close();
  }
}

async function api(url: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

async function allMatched(url: string, token: string): Promise<void> {
  for (;;) {
    const { segments } = (await api(url, token, 'GET', '/segments')) as { segments: { matching: boolean }[] };
    if (segments.every((s) => !s.matching)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface BenchRoutes {
  routeId: number;
  routes: number;
  segmentId: number;
  /** Seconds from the first segment's POST to its `matching: false`. */
  firstSegmentSeconds: number;
  /** Its efforts among the runner's runs. */
  firstSegmentEfforts: number;
}

/** Marks BENCH_SEGMENTS segments (1 km each) on the runner's tracked runs, unless they have some (a kept database). */
export async function markSegments(url: string, token: string): Promise<BenchRoutes> {
  const { routes } = (await api(url, token, 'GET', '/routes')) as { routes: { id: number }[] };
  let { segments } = (await api(url, token, 'GET', '/segments')) as { segments: { id: number }[] };
  let firstSegmentSeconds = 0;
  if (segments.length === 0) {
    const map = (await api(url, token, 'GET', '/insights/routes')) as {
      routes: { runs: { entry_id: number; distance: number }[] };
    };
    const runs = map.routes.runs.filter((r) => r.distance >= 2).reverse();
    for (let i = 0; i < BENCH_SEGMENTS && i < runs.length; i++) {
      const started = performance.now();
      await api(url, token, 'POST', '/segments', {
        entry_id: runs[(i * 29) % runs.length]!.entry_id,
        start_m: 200 + 10 * i,
        end_m: 1200 + 10 * i,
        name: `Bench segment ${i + 1}`,
      });
      if (i === 0) {
        await allMatched(url, token);
        firstSegmentSeconds = (performance.now() - started) / 1000;
      }
    }
    await allMatched(url, token);
    segments = ((await api(url, token, 'GET', '/segments')) as { segments: { id: number }[] }).segments;
  }
  const first = (await api(url, token, 'GET', `/segments/${segments[0]!.id}`)) as {
    segment: { effort_count: number };
  };
  return {
    routeId: routes[0]?.id ?? 0,
    routes: routes.length,
    segmentId: segments[0]!.id,
    firstSegmentSeconds,
    firstSegmentEfforts: first.segment.effort_count,
  };
}
