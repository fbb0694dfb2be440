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
import { decodeTrack } from '../../server/features/tracks/codec.js';
import { startOpenLoop, type OpenLoopResult } from './open-loop.js';

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
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
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

// ---- §23's import cost and other runners during matching ----

/**
 * GPX files of `count` of the runner's tracked runs (the latest, `skip` left out), read from the
 * database: the ways they usually run, so each file goes on their routes and over their segments.
 * Each is moved to start `hoursAgo` hours before now, a few minutes apart.
 */
export async function gpxOfTracks(
  databaseUrl: string,
  email: string,
  options: { count: number; skip: number; hoursAgo: number },
): Promise<{ name: string; content: string }[]> {
  const db = openDatabase(databaseUrl, { poolSize: 1, backgroundCheckpoints: false });
  try {
    const rows = await db.kysely
      .selectFrom('tracks as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['t.entry_id', 't.data'])
      .where('u.email', '=', email)
      .where('t.south', 'is not', null)
      .orderBy('t.entry_id', 'desc')
      .offset(options.skip)
      .limit(options.count)
      .execute();
    return rows.map((row, k) => {
      const track = decodeTrack(row.data);
      const start = Date.now() - options.hoursAgo * 3_600_000 - k * 300_000;
      const points: string[] = [];
      for (let i = 0; i < track.t.length; i++) {
        const lat = track.lat?.[i];
        const lon = track.lon?.[i];
        if (lat === undefined || lon === undefined || !Number.isFinite(lat) || !Number.isFinite(lon)) continue;
        const time = new Date(start + Math.round(track.t[i]! * 1000)).toISOString();
        points.push(`<trkpt lat="${lat.toFixed(7)}" lon="${lon.toFixed(7)}"><time>${time}</time></trkpt>`);
      }
      const content =
        `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1">` +
        `<trk><name>Bench run</name><type>running</type><trkseg>${points.join('')}</trkseg></trk></gpx>\n`;
      return { name: `bench-${row.entry_id}.gpx`, content };
    });
  } finally {
    await db.close();
  }
}

/** POST /import of one file; its seconds and how many runs it created. */
export async function importFile(
  url: string,
  token: string,
  file: { name: string; content: string },
): Promise<{ seconds: number; created: number }> {
  const form = new FormData();
  form.append('files[]', new Blob([file.content], { type: 'application/gpx+xml' }), file.name);
  const started = performance.now();
  const response = await fetch(`${url}/api/v1/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  const seconds = (performance.now() - started) / 1000;
  if (!response.ok) throw new Error(`import failed: ${response.status} ${text.slice(0, 300)}`);
  const created = (JSON.parse(text) as { import: { created: number } }).import.created;
  return { seconds, created };
}

/** Until neither the runner's routes nor their segments are being matched. */
export async function matchingDone(url: string, token: string): Promise<void> {
  for (;;) {
    const [{ routes }, { segments }] = (await Promise.all([
      api(url, token, 'GET', '/routes'),
      api(url, token, 'GET', '/segments'),
    ])) as [{ routes: { matching: boolean }[] }, { segments: { matching: boolean }[] }];
    if (![...routes, ...segments].some((r) => r.matching)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ImportCost {
  files: number;
  /** Median seconds of the import's answer, for a runner without routes or segments and for the runner with them. */
  none: number;
  withRoutes: number;
  /** Median seconds from the import's POST until its run was on its route and matched against the segments. */
  noneDone: number;
  withRoutesDone: number;
  created: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * §23: a tracked run's import with 50 segments and 100 routes against one without: each file
 * imported by a runner with neither, then by the runner with them (their newest run), turn about.
 */
export async function importCost(
  url: string,
  tokens: { none: string; withRoutes: string },
  files: { name: string; content: string }[],
): Promise<ImportCost> {
  const none: number[] = [];
  const withRoutes: number[] = [];
  const noneDone: number[] = [];
  const withRoutesDone: number[] = [];
  let created = 0;
  for (const file of files) {
    for (const [token, answers, done] of [
      [tokens.none, none, noneDone],
      [tokens.withRoutes, withRoutes, withRoutesDone],
    ] as const) {
      await matchingDone(url, token);
      const started = performance.now();
      const result = await importFile(url, token, file);
      answers.push(result.seconds);
      created += result.created;
      await matchingDone(url, token);
      done.push((performance.now() - started) / 1000);
    }
  }
  return {
    files: files.length,
    none: median(none),
    withRoutes: median(withRoutes),
    noneDone: median(noneDone),
    withRoutesDone: median(withRoutesDone),
    created,
  };
}

export interface MatchingStall {
  label: string;
  seconds: number;
  probe: OpenLoopResult;
}

/**
 * §23: another runner probed open-loop (a write, a read and GET /api/health every 250 ms) while
 * the runner with 1,500 tracked runs has a new segment matched against all of them, and while
 * their routes are grouped again from the start (a run older than most imported, then deleted).
 */
export async function othersDuringMatching(
  url: string,
  tokens: { runner: string; other: string },
  olderRun: { name: string; content: string },
): Promise<MatchingStall[]> {
  const during = async (label: string, work: () => Promise<void>, firstRun: number): Promise<MatchingStall> => {
    await matchingDone(url, tokens.runner);
    const probe = await startOpenLoop({
      url,
      token: tokens.other,
      intervalMs: 250,
      maxSeconds: 600,
      drainSeconds: 60,
      firstRun,
    });
    const started = performance.now();
    let failure: unknown = null;
    try {
      await work();
    } catch (error) {
      failure = error;
    }
    const seconds = (performance.now() - started) / 1000;
    const result = await probe.stop();
    if (failure) throw failure;
    return { label, seconds, probe: result };
  };
  const results: MatchingStall[] = [];
  results.push(
    await during(
      'a new segment matched against 1,500 tracked runs',
      async () => {
        const map = (await api(url, tokens.runner, 'GET', '/insights/routes')) as {
          routes: { runs: { entry_id: number; distance: number }[] };
        };
        const run = map.routes.runs.filter((r) => r.distance >= 3).at(-7)!;
        const made = (await api(url, tokens.runner, 'POST', '/segments', {
          entry_id: run.entry_id,
          start_m: 900,
          end_m: 2100,
          name: 'Bench probe segment',
        })) as { segment: { id: number } };
        await matchingDone(url, tokens.runner);
        await api(url, tokens.runner, 'DELETE', `/segments/${made.segment.id}`);
      },
      3_000_000,
    ),
  );
  results.push(
    await during(
      'routes grouped from the start twice (an older run imported, then deleted)',
      async () => {
        const form = new FormData();
        form.append('files[]', new Blob([olderRun.content]), olderRun.name);
        const answer = (await (
          await fetch(`${url}/api/v1/import`, {
            method: 'POST',
            headers: { authorization: `Bearer ${tokens.runner}` },
            body: form,
          })
        ).json()) as { import: { rows: { entry?: { id: number } }[] } };
        await matchingDone(url, tokens.runner);
        const id = answer.import.rows.find((row) => row.entry)?.entry?.id;
        if (id) {
          await api(url, tokens.runner, 'DELETE', `/entry/${id}`);
          await matchingDone(url, tokens.runner);
        }
      },
      3_100_000,
    ),
  );
  return results;
}
