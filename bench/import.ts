/**
 * npm run bench:import -- [--csv-rows N] [--fit-files F] [--track-files W] [--export-runs E] [--large-mib M]
 *                         [--load-seconds S] [--huge-rows H] [--stall-runs R] [--stall-fit-files G]
 *                         [--hostile-scale X] [--item-timeout T] [--probe-interval I]
 *                         [--inbox-idle N] [--inbox-idle-seconds S] [--inbox-drops D] [--inbox-rounds R]
 *                         [--only REGEX | --hostile-only] [--skip-build]
 *
 * Import and export throughput (CONTRACT.md §9, §12), and what long work and hostile files do to
 * another runner and to the server, on a fresh database of the kind of DATABASE_URL (a SQLite file
 * by default, or a new database on the PostgreSQL server of a postgres:// URL), through the
 * production build (`npm run build:server` first, unless --skip-build) running as a process of its
 * own with the default configuration. Its memory is read from outside (lib/probed-server.ts): the
 * peak resident memory from /proc, and the V8 heap of its main thread through a preloaded probe;
 * the client's memory is never counted. Each part has a name that --only REGEX picks (--hostile-only
 * is --only '^hostile-'):
 * - strava-csv: a Strava activities.csv of N rows (default 10,000), runs/s;
 * - fit-zip: a zip of F FIT activities (default 200), runs/s;
 * - tracks (CONTRACT.md §17): a zip of W watch FIT files (default 200) of one hour recorded every
 *   second (position, distance, elevation, heart rate, cadence; lib/watch-files.ts, kept in
 *   bench/.tmp once made): files/s (target >= 25), against the rate at which this process only
 *   decodes the same files with the FIT SDK's Decoder, one after another (target: the import at
 *   least half of it), the server's RSS growth (target <= 150 MB) and the stored size of their
 *   tracks per hour of samples (target <= 25 KB);
 * - formats: the same hour's run recorded every second as FIT, GPX and TCX, each imported 5 times
 *   by new runners once a parse thread is warm: the median of each (target: GPX and TCX within 4
 *   times FIT's);
 * - own-csv: the CSV and JSON exports of a runner with E runs (default 100,000; seeded by importing
 *   this server's own CSV, itself measured), runs/s and the growth of the server's RSS while
 *   streaming;
 * - export-zip: the zip export (§16) of the runner of `tracks` (each a one-hour FIT file recorded
 *   every second), tracked runs/s and the growth of the server's RSS (targets: at least 200
 *   tracked runs/s, at most 50 MB);
 * - large: this server's own CSV with long notes, written to a temporary folder until it is M MiB
 *   (default 190, under IMPORT_MAX_BYTES, 1 GiB by default, which the server keeps here),
 *   imported from the file (the upload is read from disk, not held by the client): runs/s and
 *   RSS growth; meanwhile GET /api/v1/entry of another runner is loaded for S seconds (default
 *   30, within the import) by autocannon (10 connections, a closed loop) in a child process, its
 *   req/s and p50 beside the same load without an import: the reads' throughput beside an import,
 *   not their stalls (a closed loop hides those; the stall-* parts measure them);
 * - inbox (CONTRACT.md §20, §23; bench/inbox.ts): a server of its own with INBOX_DIR: the CPU of
 *   --inbox-idle empty inboxes (default 2,000) over --inbox-idle-seconds (default 60; target under
 *   2% of a core), --inbox-drops files (default 50) dropped one at a time into an idle inbox (p99
 *   target <= 10 s) and, --inbox-rounds times (default 3, medians), the W watch files dropped at
 *   once into a new runner's inbox (files/s, §17's 25, from 2 s after the last was written, when
 *   §20 lets it be read; and from the first drop), another runner probed open-loop meanwhile as
 *   in the stall parts below (slowest write <= 2 s), then the same files uploaded as one zip;
 * - huge: a request of two gzipped CSVs of H rows each (default 3,000,000; 0 skips it), as a dry
 *   run: its answer (a 413 past the rows of one import), its time and the server's memory;
 * - others during long work, open-loop (lib/open-loop.ts, in a child process): while each of the
 *   following runs, another runner (an account of its own, registered through the API) sends
 *   every I ms (default 250), whether or not the last answer came, a POST /api/v1/entry, a
 *   GET /api/v1/entry and a GET /api/health, each timed from its scheduled send to its answer's
 *   end (answers still due when the work ends are waited for at most 60 s more; one never
 *   answered counts as its wait). Each part is one request, bounded by T seconds (default 180):
 *   stall-csv-import, a CSV of this server of R runs (default 200,000) for a new runner;
 *   stall-fit-zip, a zip of G of the watch files above (default 200) for a new runner;
 *   stall-export-json and stall-export-zip, the JSON and the zip export of the runner of R runs;
 *   and the hostile files of server/test/imports/abuse-fixtures.ts, each sent as a dry run
 *   (hostile-sessions: sessionsOverSharedRecords(2500, 35000) as a .fit; hostile-gzip:
 *   repeatedRecordsFitGz(117) as a .fit.gz; hostile-index-zip: indexNamingOneMember(2000,
 *   sessionsOverSharedRecords(30, 35000)) as a .zip) but hostile-laps, manyLapsFit(200000,
 *   100000) imported for real and then its GET /api/v1/entry/{id}/track read (--hostile-scale X
 *   multiplies the sessions, MiB, rows, laps and pauses: 0.1 for a quick run). For each: the
 *   answer's status (`died` when the server died before answering, `timeout` past T), its time,
 *   the other runner's slowest and p99 latency per request and answers outside 2xx (5xx apart),
 *   whether the server still runs 5 s after, and its RSS before, at its peak and 5 s after.
 *   Targets: the other runner's slowest write <= 2 s, health <= 1 s, read <= 2 s, no 5xx and every
 *   request answered; the server alive; its RSS 5 s after within 100 MB of where it started. A
 *   server that died, still works past T or holds more than 100 MB above where the part started
 *   is started again (on the same database) before the next part: each starts from a server in its
 *   usual state.
 * The client reads each import's answer as a stream and keeps only its counts (an answer lists
 * every row: 100,000 rows are ~30 MB of JSON).
 * Kept apart from bench/run.ts, which loads read endpoints with autocannon: an import is one
 * long request whose cost is the work, not the stack.
 * Results go to the terminal (PASS or FAIL beside each figure with a target) and to
 * bench/results/<time>-import-<dialect>.json (the targets under `targets`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { Decoder, Stream } from '@garmin/fitsdk';
import { loadInChild } from './lib/load-process.js';
import { startOpenLoop } from './lib/open-loop.js';
import {
  othersTable,
  othersTargets,
  RSS_AFTER_MB,
  SLOWEST_HEALTH_MS,
  SLOWEST_READ_MS,
  SLOWEST_WRITE_MS,
  type ItemStatus,
  type OthersItem,
} from './lib/others-during.js';
import { describeTrackSizes, TRACK_BYTES_PER_HOUR_TARGET, trackSizes } from './lib/track-size.js';
import { watchFiles } from './lib/watch-files.js';
import type { Target, TrackImportResult } from './lib/report.js';
import { decodeFit } from '../server/features/imports/parsers/fit.js';
import { buildServer, startProbedServer, type Memory, type ProbedServer } from './lib/probed-server.js';
import { scratchDatabase } from '../scripts/support/scratch-database.js';
import { gpxFile, stravaCsv, tcxFile, zip, type StravaRow } from '../server/test/imports/fixtures.js';
import { fitActivity, fitFile } from '../server/test/imports/fit-fixtures.js';
import { inboxBench } from './inbox.js';
import {
  indexNamingOneMember,
  manyLapsFit,
  repeatedRecordsFitGz,
  sessionsOverSharedRecords,
} from '../server/test/imports/abuse-fixtures.js';

const { values: args } = parseArgs({
  options: {
    'csv-rows': { type: 'string', default: '10000' },
    'fit-files': { type: 'string', default: '200' },
    'track-files': { type: 'string', default: '200' },
    'export-runs': { type: 'string', default: '100000' },
    'large-mib': { type: 'string', default: '190' },
    'load-seconds': { type: 'string', default: '30' },
    'huge-rows': { type: 'string', default: '3000000' },
    'stall-runs': { type: 'string', default: '200000' },
    'stall-fit-files': { type: 'string', default: '200' },
    'hostile-scale': { type: 'string', default: '1' },
    'item-timeout': { type: 'string', default: '180' },
    'probe-interval': { type: 'string', default: '250' },
    'inbox-idle': { type: 'string', default: '2000' },
    'inbox-idle-seconds': { type: 'string', default: '60' },
    'inbox-drops': { type: 'string', default: '50' },
    'inbox-rounds': { type: 'string', default: '3' },
    only: { type: 'string' },
    'hostile-only': { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
  },
});
const CSV_ROWS = Number(args['csv-rows']);
const FIT_FILES = Number(args['fit-files']);
const TRACK_FILES = Number(args['track-files']);
/** §17's watch files: an hour each, one sample a second. */
const TRACK_FILE_SECONDS = 3600;
const MB = 1_000_000;
const EXPORT_RUNS = Number(args['export-runs']);
const LARGE_MIB = Number(args['large-mib']);
const LOAD_SECONDS = Number(args['load-seconds']);
const HUGE_ROWS = Number(args['huge-rows']);
const STALL_RUNS = Number(args['stall-runs']);
const STALL_FIT_FILES = Number(args['stall-fit-files']);
const HOSTILE_SCALE = Number(args['hostile-scale']);
const ITEM_TIMEOUT_S = Number(args['item-timeout']);
const PROBE_INTERVAL_MS = Number(args['probe-interval']);
const INBOX_IDLE = Number(args['inbox-idle']);
const INBOX_IDLE_SECONDS = Number(args['inbox-idle-seconds']);
const INBOX_DROPS = Number(args['inbox-drops']);
/**
 * The bound of every request of the throughput parts (an import of a 190 MiB file takes about a
 * minute): past it the request is aborted and the bench stops with its error rather than hang.
 */
const LONG_REQUEST_S = 600;
const longRequest = () => AbortSignal.timeout(LONG_REQUEST_S * 1000);
/** How long the other runner's answers still due when the work ends are waited for. */
const PROBE_DRAIN_S = 60;
for (const [name, value] of Object.entries({
  'stall-runs': STALL_RUNS,
  'stall-fit-files': STALL_FIT_FILES,
  'hostile-scale': HOSTILE_SCALE,
  'item-timeout': ITEM_TIMEOUT_S,
  'probe-interval': PROBE_INTERVAL_MS,
})) {
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number >= 0, got ${value}`);
}
if (ITEM_TIMEOUT_S <= 0 || PROBE_INTERVAL_MS <= 0) throw new Error('--item-timeout and --probe-interval must be > 0');
/** The parts run: all, or those whose name --only matches. */
const ONLY = args['hostile-only'] ? /^hostile-/ : args.only ? new RegExp(args.only) : null;
/** Imports of each format of one hour's run (the formats part). */
const FORMAT_ROUNDS = 5;
const selected = (part: string) => ONLY === null || ONLY.test(part);

const DAY = 86_400_000;
const FIRST = Date.UTC(2012, 0, 1, 7, 0, 0);
const MiB = 1024 * 1024;
async function main() {
  const scratch = await scratchDatabase({ name: 'bench_import', baseUrl: process.env.DATABASE_URL });
  if (!args['skip-build']) buildServer();
  const startServer = () => startProbedServer({ DATABASE_URL: scratch.url, LOG_LEVEL: 'warn', WEB_ROOT: '' });
  /** The server; started again on the same database when one dies or outlasts a part's bound. */
  let server: ProbedServer = await startServer();
  /** Why the server is to be started again before the next part; null: it is not. */
  let restartBeforeNext: string | null = null;
  /** Starts the server again if the last part killed it, left it working or left its memory high; answers whether it did. */
  const serverReady = async () => {
    const reason = server.alive() ? restartBeforeNext : 'the last one died';
    if (reason === null) return false;
    console.log(`  (starting the server again on the same database: ${reason})`);
    await server.stop();
    server = await startServer();
    restartBeforeNext = null;
    return true;
  };
  const withRss = async <T>(work: () => Promise<T>): Promise<{ result: T } & Memory> => {
    const { result, memory } = await server.measure(work);
    return { result, ...memory };
  };
  const api = (route: string) => `${server.url}/api/v1${route}`;
  const loadAverageAtStart = os.loadavg().map((l) => Math.round(l * 100) / 100);
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    dialect: scratch.dialect,
    server: 'dist/server/main.js, a process of its own (RSS from /proc, V8 heap of its main thread)',
    csvRows: CSV_ROWS,
    fitFiles: FIT_FILES,
    trackFiles: TRACK_FILES,
    exportRuns: EXPORT_RUNS,
    only: ONLY?.source ?? null,
    // The machine is shared: how busy it was says how far the figures are the server's own.
    cpus: os.availableParallelism(),
    loadAverageAtStart,
  };
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
  let n = 0;
  /**
   * A new runner through POST /auth/register of the server at `apiBase`; waits out the throttle (10 a
   * minute from one address).
   */
  const registerAt = async (apiBase: string, email = `bench-${n + 1}-${Date.now()}@example.com`) => {
    n += 1;
    const body = {
      name: `Bench ${n}`,
      email,
      password: 'bench-password-1',
      password_confirmation: 'bench-password-1',
      timezone: 'UTC',
    };
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${apiBase}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
      if (res.status === 429 && attempt < 2) {
        const seconds = Math.min(65, Number(res.headers.get('retry-after') ?? 60) + 1);
        await res.arrayBuffer();
        console.log(`  (registration throttled: waiting ${seconds} s)`);
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        continue;
      }
      if (!res.ok) throw new Error(`registration refused: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { access_token: string }).access_token;
    }
  };
  const register = (email?: string) => registerAt(api(''), email);
  /** POST /import of `files` (a dry run when asked); answers the status and body of a refusal. */
  const send = async (
    token: string,
    files: [string, Uint8Array | string | Blob][],
    dryRun = false,
    signal?: AbortSignal,
  ) => {
    const form = new FormData();
    if (dryRun) form.append('dry_run', '1');
    for (const [name, bytes] of files) form.append('file', bytes instanceof Blob ? bytes : new Blob([bytes]), name);
    return fetch(api('/import'), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
      signal: signal ?? longRequest(),
    });
  };
  const importOne = async (token: string, name: string, bytes: Uint8Array | string | Blob) => {
    const started = performance.now();
    const res = await send(token, [[name, bytes]]);
    if (res.status !== 201) throw new Error(`import failed: ${res.status} ${await res.text()}`);
    // The answer lists every row: read as a stream, only its counts (at its head) are kept, so
    // that the RSS measured is the server's, not this client's copy of the answer.
    let head = '';
    let answerBytes = 0;
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      answerBytes += chunk.length;
      if (head.length < 200) head += decoder.decode(chunk.subarray(0, 200));
    }
    const seconds = (performance.now() - started) / 1000;
    const counts = /^\{"import":\{"created":(\d+),"duplicates":(\d+),"skipped":(\d+)/.exec(head);
    if (!counts) throw new Error(`unexpected answer: ${head.slice(0, 100)}`);
    const created = Number(counts[1]);
    if (created === 0) console.log(`  (${name}: the import stored no run: ${head.slice(0, 200)})`);
    return {
      created,
      duplicates: Number(counts[2]),
      skipped: Number(counts[3]),
      seconds,
      runsPerSecond: Math.round(created / seconds),
      answerBytes,
    };
  };

  /** A ~LARGE_MIB file imported while another runner's first page of runs is loaded. */
  const largeImport = async () => {
    const reader = await register();
    const history = ['date,distance_km,time,title,notes,kind,effort,shoe'];
    for (let i = 0; i < 500; i++) {
      history.push(`${new Date(FIRST + i * DAY).toISOString().slice(0, 10)},${5 + (i % 10)},00:30:00,Run ${i},,easy,,`);
    }
    await importOne(reader, 'history.csv', `${history.join('\n')}\n`);
    const load = () =>
      loadInChild({
        url: server.url,
        requests: [{ method: 'GET', path: '/api/v1/entry', headers: { authorization: `Bearer ${reader}` } }],
        connections: 10,
        duration: LOAD_SECONDS,
      });
    const alone = await load();

    // This server's own CSV, notes of about 1,000 characters a run, written a page at a time.
    const file = path.join(temp, 'large.csv');
    const out = fs.openSync(file, 'w');
    let size = 0;
    let runs = 0;
    const note = 'Easy along the river, then strides; legs fine, a little wind. '.repeat(16);
    fs.writeSync(out, 'date,distance_km,time,title,notes,kind,effort,shoe\n');
    while (size < LARGE_MIB * MiB - 64 * 1024) {
      let page = '';
      for (let i = 0; i < 500; i++, runs++) {
        const day = new Date(FIRST + Math.floor(runs / 8) * (DAY / 8)).toISOString().slice(0, 10);
        page += `${day},${(5 + (runs % 100) / 10).toFixed(1)},00:${String(25 + (runs % 30)).padStart(2, '0')}:00,Run ${runs},"${runs} ${note}",easy,${(runs % 10) + 1},\n`;
      }
      size += fs.writeSync(out, page);
    }
    fs.closeSync(out);
    const importer = await register();
    const during = loadInChild({
      url: server.url,
      requests: [{ method: 'GET', path: '/api/v1/entry', headers: { authorization: `Bearer ${reader}` } }],
      connections: 10,
      duration: LOAD_SECONDS,
    });
    // A Blob backed by the file: the client sends it from disk.
    const upload = (await fs.openAsBlob(file)) as unknown as Blob;
    const measured = await withRss(() => importOne(importer, 'large.csv', upload));
    const loaded = await during;
    const imported = measured.result;
    const fileMiB = Math.round((size / MiB) * 10) / 10;
    const round = (ms: number) => Math.round(ms * 10) / 10;
    console.log(
      `Own CSV of ${fileMiB} MiB (${runs} rows): ${imported.created} runs (${imported.duplicates} duplicates, ${imported.skipped} skipped) ` +
        `in ${imported.seconds.toFixed(2)} s = ${imported.runsPerSecond} runs/s, ` +
        `server RSS growth ${measured.rssGrowthMiB} MiB (${measured.rssBeforeMiB} -> peak ${measured.rssPeakMiB} MiB; ` +
        `V8 heap peak growth ${measured.heapGrowthMiB} MiB, left after ${(measured.heapAfterMiB - measured.heapBeforeMiB).toFixed(1)} MiB)`,
    );
    console.log(
      `GET /entry of another runner, 10 connections, ${LOAD_SECONDS} s: p50 ${round(alone.p50)} ms, p99 ${round(alone.p99)} ms, ${Math.round(alone.rps)} req/s alone; ` +
        `p50 ${round(loaded.p50)} ms, p99 ${round(loaded.p99)} ms, ${Math.round(loaded.rps)} req/s during the import (${loaded.failures} failed)`,
    );
    return {
      fileMiB,
      rows: runs,
      ...imported,
      rssGrowthMiB: measured.rssGrowthMiB,
      rssBeforeMiB: measured.rssBeforeMiB,
      rssPeakMiB: measured.rssPeakMiB,
      heapGrowthMiB: measured.heapGrowthMiB,
      heapLeftMiB: Math.round((measured.heapAfterMiB - measured.heapBeforeMiB) * 10) / 10,
      entryAlone: alone,
      entryDuringImport: loaded,
    };
  };

  /** This server's own CSV of `count` runs, each on its own quarter of a day from FIRST. */
  const ownCsv = (count: number) => {
    const lines = ['date,distance_km,time,title,notes,kind,effort,shoe'];
    for (let i = 0; i < count; i++) {
      const day = new Date(FIRST + Math.floor(i / 4) * (DAY / 4)).toISOString().slice(0, 10);
      lines.push(
        `${day},${(5 + (i % 100) / 10).toFixed(1)},00:${String(25 + (i % 30)).padStart(2, '0')}:00,Run ${i},,easy,${(i % 10) + 1},`,
      );
    }
    return `${lines.join('\n')}\n`;
  };

  /**
   * This server's own CSV of `count` runs, every one stored: as ownCsv, but as many a day as it
   * takes for the last to fall before today (a later date is refused).
   */
  const pastCsv = (count: number) => {
    const days = Math.floor((Date.now() - FIRST) / DAY) - 1;
    const perDay = Math.max(1, Math.ceil(count / days));
    const lines = ['date,distance_km,time,title,notes,kind,effort,shoe'];
    for (let i = 0; i < count; i++) {
      const day = new Date(FIRST + Math.floor(i / perDay) * DAY).toISOString().slice(0, 10);
      lines.push(
        `${day},${(5 + (i % 100) / 10).toFixed(1)},00:${String(25 + (i % 30)).padStart(2, '0')}:00,Run ${i},,easy,${(i % 10) + 1},`,
      );
    }
    return `${lines.join('\n')}\n`;
  };

  /**
   * One request of a part, bounded by `signal`: its status and time, the answer read as a stream
   * to its end and only its first `keep` characters kept. A request without an answer is `died`
   * when the server is gone within 3 s of its failure, `timeout` past the bound, else `failed`.
   */
  const timed = async (
    request: (signal: AbortSignal) => Promise<Response>,
    signal: AbortSignal,
    keep = 300,
  ): Promise<{ status: ItemStatus; seconds: number; head: string; bytes: number; error?: string }> => {
    const started = performance.now();
    let head = '';
    let bytes = 0;
    try {
      const res = await request(signal);
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        if (head.length < keep) head += decoder.decode(chunk.subarray(0, keep));
      }
      return { status: res.status, seconds: (performance.now() - started) / 1000, head: head.slice(0, keep), bytes };
    } catch (error) {
      const seconds = (performance.now() - started) / 1000;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const message = `${String(error)}${cause ? ` (${cause.code ?? cause.message ?? ''})` : ''}`;
      const died = await Promise.race([
        server.exited.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3000)),
      ]);
      const status: ItemStatus = died ? 'died' : signal.aborted ? 'timeout' : 'failed';
      return { status, seconds, head: '', bytes, error: message };
    }
  };

  /** The other runner, probed open-loop through every part: registered once, and able to post a run. */
  let other: string | null = null;
  let probeRuns = 1_000_000;
  const otherRunner = async () => {
    if (other) return other;
    other = await register(`bench-other-${Date.now()}@example.com`);
    // A run of the same making as the prober's, posted once: its every POST is a valid run.
    const res = await fetch(api('/entry'), {
      signal: AbortSignal.timeout(60_000),
      method: 'POST',
      headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' },
      body: JSON.stringify({ date: '1999-12-31', distance: 5, time: '00:30:00' }),
    });
    if (res.status !== 201) throw new Error(`the other runner could not post a run: ${res.status} ${await res.text()}`);
    return other;
  };

  const fmtMiB = (mib: number) => mib.toFixed(0);
  /** Why a server died, from the end of its stderr: V8's fatal error or the first error line, else its last line. */
  const why = (output: string) => {
    const lines = output.trim().split('\n');
    const line =
      lines.find((l) => /FATAL ERROR|out of memory/i.test(l)) ??
      lines.find((l) => /^\s*(\w*Error\b|Error:)/.test(l)) ??
      lines.at(-1) ??
      '';
    return line.trim().slice(0, 300) || 'no output';
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const others: OthersItem[] = [];
  /**
   * Part `name`: `work` (one request, or two for hostile-laps), bounded by ITEM_TIMEOUT_S, while
   * the other runner is probed open-loop; then the server's life and memory 5 s after.
   */
  const othersDuring = async (
    name: string,
    label: string,
    work: (signal: AbortSignal) => Promise<Pick<OthersItem, 'status' | 'seconds' | 'detail' | 'followUp'>>,
    file?: OthersItem['file'],
  ): Promise<OthersItem> => {
    const restartedBefore = await serverReady();
    const token = await otherRunner();
    const memory = server.watchRss();
    const probe = await startOpenLoop({
      url: server.url,
      token,
      intervalMs: PROBE_INTERVAL_MS,
      // The work is bounded by ITEM_TIMEOUT_S; the prober by a little more, in case.
      maxSeconds: ITEM_TIMEOUT_S + 10,
      drainSeconds: PROBE_DRAIN_S,
      firstRun: probeRuns,
    });
    const signal = AbortSignal.timeout(ITEM_TIMEOUT_S * 1000);
    const started = performance.now();
    let answer: Pick<OthersItem, 'status' | 'seconds' | 'detail' | 'followUp'>;
    try {
      answer = await work(signal);
    } catch (error) {
      // timed() answers every request's failure; this is the bench's own (the prober is still stopped).
      answer = { status: 'failed', seconds: (performance.now() - started) / 1000, detail: String(error) };
    }
    // 5 s after the request ended, while the prober drains: the server's life and memory.
    const after = (async () => {
      await sleep(5000);
      const alive = server.alive();
      const rss = server.rssMiB();
      const peak = memory.peakMiB();
      memory.stop();
      let health: number | null = null;
      if (alive) {
        health = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(5000) }).then(
          async (res) => {
            await res.arrayBuffer();
            return res.status;
          },
          () => null,
        );
      }
      return { alive, rss, peak, health };
    })();
    const probed = await probe.stop();
    probeRuns += probed.write.sent;
    const later = await after;
    const exit = server.alive() ? null : await server.exited;
    const item: Omit<OthersItem, 'targets'> = {
      name,
      label,
      file,
      ...answer,
      serverAlive: later.alive,
      serverExit: exit
        ? `${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`}: ${why(server.output())}`
        : undefined,
      healthAfter: later.health,
      restartedBefore,
      rssBeforeMiB: memory.beforeMiB,
      rssPeakMiB: later.peak,
      rssAfter5sMiB: Number.isFinite(later.rss) ? later.rss : null,
      others: probed,
    };
    const measured: OthersItem = { ...item, targets: othersTargets(item) };
    // Each part starts from a server in its usual state: one gone, still at work past the bound,
    // or holding more than RSS_AFTER_MB above where it started is started again before the next.
    if (!server.alive()) restartBeforeNext = 'the last one died';
    else if (answer.status === 'timeout') restartBeforeNext = 'the last one was still working';
    else if (measured.targets.some((t) => t.target.startsWith('RSS 5 s after') && !t.pass)) {
      restartBeforeNext = `the last one kept ${fmtMiB(later.rss)} MiB`;
    }
    others.push(measured);
    const { write, read, health } = probed;
    console.log(
      `${label}${file ? ` (${file.name}, ${(file.bytes / 1024).toFixed(0)} KiB${file.dryRun ? ', dry run' : ''})` : ''}: ` +
        `${answer.status} in ${answer.seconds.toFixed(1)} s (${answer.detail.slice(0, 160)})` +
        (answer.followUp
          ? `; then ${answer.followUp.request}: ${answer.followUp.status} in ${answer.followUp.seconds.toFixed(1)} s (${answer.followUp.detail.slice(0, 120)})`
          : '') +
        `; the other runner, every ${PROBE_INTERVAL_MS} ms for ${probed.scheduleSeconds.toFixed(1)} s: ` +
        [write, read, health]
          .map(
            (k) =>
              `${k.request} slowest ${k.slowestMs.toFixed(0)} ms, p99 ${k.p99Ms.toFixed(0)} ms, ${k.not2xx} not 2xx (${k.serverErrors} 5xx)`,
          )
          .join('; '),
    );
    for (const t of measured.targets) console.log(`  ${t.pass ? 'PASS' : 'FAIL'}  ${t.target}: ${t.detail}`);
    return measured;
  };

  /** An import's counts from the head of its answer, or the head itself. */
  const importCounts = (head: string) => {
    const counts = /^\{"import":\{"created":(\d+),"duplicates":(\d+),"skipped":(\d+)/.exec(head);
    return counts ? `created ${counts[1]}, duplicates ${counts[2]}, skipped ${counts[3]}` : head.slice(0, 200);
  };
  /** A part that imports `files` (a dry run when asked) with `token`. */
  const importPart =
    (token: string, files: [string, Uint8Array | string | Blob][], dryRun: boolean) => async (signal: AbortSignal) => {
      const answer = await timed((s) => send(token, files, dryRun, s), signal);
      return {
        status: answer.status,
        seconds: answer.seconds,
        detail: answer.error ?? `${importCounts(answer.head)}; answer ${(answer.bytes / MiB).toFixed(1)} MiB`,
      };
    };
  /** A part that reads the `format` export of `token`'s runs. */
  const exportPart = (token: string, format: 'json' | 'zip') => async (signal: AbortSignal) => {
    const answer = await timed(
      (s) => fetch(api(`/export?format=${format}`), { headers: { authorization: `Bearer ${token}` }, signal: s }),
      signal,
    );
    return {
      status: answer.status,
      seconds: answer.seconds,
      detail:
        answer.error ?? (answer.status === 200 ? `${(answer.bytes / MiB).toFixed(1)} MiB` : answer.head.slice(0, 200)),
    };
  };

  /** The runner whose STALL_RUNS runs the stall exports write out (stall-csv-import, or seeded). */
  let stallHolder: string | null = null;
  const stallParts = async () => {
    if (STALL_RUNS > 0 && selected('stall-csv-import')) {
      const csv = pastCsv(STALL_RUNS);
      await serverReady();
      const token = await register();
      const item = await othersDuring(
        'stall-csv-import',
        `CSV import of ${STALL_RUNS.toLocaleString('en-US')} runs`,
        importPart(token, [['stall.csv', csv]], false),
        { name: 'stall.csv', bytes: csv.length, dryRun: false },
      );
      if (item.status === 201) stallHolder = token;
    }
    if (STALL_FIT_FILES > 0 && selected('stall-fit-zip')) {
      const made = await watchFiles(STALL_FIT_FILES, TRACK_FILE_SECONDS);
      const upload = zip(made.files);
      await serverReady();
      await othersDuring(
        'stall-fit-zip',
        `zip of ${STALL_FIT_FILES} one-hour watch FIT files`,
        importPart(await register(), [['watch.zip', upload]], false),
        { name: 'watch.zip', bytes: upload.length, dryRun: false },
      );
    }
    const exports = (['json', 'zip'] as const).filter((format) => selected(`stall-export-${format}`));
    if (STALL_RUNS > 0 && exports.length > 0) {
      if (!stallHolder) {
        await serverReady();
        stallHolder = await register();
        const seeded = await importOne(stallHolder, 'stall.csv', pastCsv(STALL_RUNS));
        console.log(`(the runner of the exports seeded with ${seeded.created} runs in ${seeded.seconds.toFixed(1)} s)`);
      }
      for (const format of exports) {
        await othersDuring(
          `stall-export-${format}`,
          `${format.toUpperCase()} export of ${STALL_RUNS.toLocaleString('en-US')} runs`,
          exportPart(stallHolder, format),
        );
      }
    }
  };

  /** The hostile files of abuse-fixtures.ts, each made here, then sent while the other runner is probed. */
  const hostileParts = async () => {
    const scaled = (count: number) => Math.max(1, Math.round(count * HOSTILE_SCALE));
    const made = <T>(what: string, make: () => T): T => {
      const started = performance.now();
      const result = make();
      console.log(`(${what} made in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
      return result;
    };
    let token: string | null = null;
    const hostileRunner = async () => {
      await serverReady();
      token ??= await register();
      return token;
    };
    const dryRun = async (name: string, label: string, fileName: string, bytes: Uint8Array) => {
      const owner = await hostileRunner();
      await othersDuring(name, label, importPart(owner, [[fileName, bytes]], true), {
        name: fileName,
        bytes: bytes.length,
        dryRun: true,
      });
    };
    if (selected('hostile-sessions')) {
      const sessions = scaled(2500);
      const label = `sessionsOverSharedRecords(${sessions}, 35000)`;
      await dryRun(
        'hostile-sessions',
        label,
        'sessions.fit',
        made(label, () => sessionsOverSharedRecords(sessions, 35000)),
      );
    }
    if (selected('hostile-gzip')) {
      const mib = scaled(117);
      const label = `repeatedRecordsFitGz(${mib})`;
      await dryRun(
        'hostile-gzip',
        label,
        'records.fit.gz',
        made(label, () => repeatedRecordsFitGz(mib)),
      );
    }
    if (selected('hostile-index-zip')) {
      const rows = scaled(2000);
      const label = `indexNamingOneMember(${rows}, sessionsOverSharedRecords(30, 35000))`;
      await dryRun(
        'hostile-index-zip',
        label,
        'index.zip',
        made(label, () => indexNamingOneMember(rows, sessionsOverSharedRecords(30, 35000))),
      );
    }
    if (selected('hostile-laps')) {
      const laps = scaled(200_000);
      const pauses = scaled(100_000);
      const label = `manyLapsFit(${laps}, ${pauses}), imported, then its track read`;
      const bytes = made(label, () => manyLapsFit(laps, pauses));
      const owner = await hostileRunner();
      await othersDuring(
        'hostile-laps',
        label,
        async (signal) => {
          // The import's answer is one row: kept whole (bounded) for the new run's id.
          const imported = await timed((s) => send(owner, [['laps.fit', bytes]], false, s), signal, 100_000);
          const answer = {
            status: imported.status,
            seconds: imported.seconds,
            detail:
              imported.error ?? `${importCounts(imported.head)}; answer ${(imported.bytes / 1024).toFixed(0)} KiB`,
          };
          const id = /"entry":\{"id":(\d+)/.exec(imported.head)?.[1] ?? /"id":(\d+)/.exec(imported.head)?.[1];
          if (imported.status !== 201 || !id) return answer;
          const read = await timed(
            (s) => fetch(api(`/entry/${id}/track`), { headers: { authorization: `Bearer ${owner}` }, signal: s }),
            signal,
          );
          return {
            ...answer,
            followUp: {
              request: `GET /api/v1/entry/${id}/track`,
              status: read.status,
              seconds: read.seconds,
              detail:
                read.error ?? (read.status === 200 ? `${(read.bytes / 1024).toFixed(0)} KiB` : read.head.slice(0, 200)),
            },
          };
        },
        { name: 'laps.fit', bytes: bytes.length, dryRun: false },
      );
    }
  };

  /** A dry run of two gzipped CSVs of HUGE_ROWS rows each, written to disk a page at a time. */
  const hugeRequest = async () => {
    const write = async (file: string, from: number) => {
      const pages = async function* () {
        yield 'date,distance_km,time,title,notes,kind,effort,shoe\n';
        for (let at = 0; at < HUGE_ROWS; at += 10_000) {
          let page = '';
          for (let i = at; i < Math.min(HUGE_ROWS, at + 10_000); i++) {
            const day = new Date(FIRST + ((from + i) % 4000) * DAY).toISOString().slice(0, 10);
            page += `${day},${(5 + (i % 100) / 10).toFixed(1)},00:30:00,,,,,\n`;
          }
          yield page;
        }
      };
      await pipeline(pages, zlib.createGzip(), fs.createWriteStream(file));
      return fs.openAsBlob(file) as unknown as Promise<Blob>;
    };
    const a = await write(path.join(temp, 'huge-a.csv.gz'), 0);
    const b = await write(path.join(temp, 'huge-b.csv.gz'), 1);
    const token = await register();
    const measured = await withRss(async () => {
      const started = performance.now();
      const res = await send(
        token,
        [
          ['huge-a.csv.gz', a],
          ['huge-b.csv.gz', b],
        ],
        true,
      );
      let bytes = 0;
      let head = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        if (head.length < 300) head += new TextDecoder().decode(chunk.subarray(0, 300));
      }
      return {
        status: res.status,
        seconds: (performance.now() - started) / 1000,
        answerBytes: bytes,
        head: head.slice(0, 200),
      };
    });
    console.log(
      `Two gzipped CSVs of ${HUGE_ROWS} rows each (${((a.size + b.size) / MiB).toFixed(1)} MiB), dry run: ${measured.result.status} ` +
        `in ${measured.result.seconds.toFixed(1)} s (${measured.result.head.slice(0, 120)}), server RSS growth ${measured.rssGrowthMiB} MiB ` +
        `(V8 heap peak growth ${measured.heapGrowthMiB} MiB)`,
    );
    return {
      ...measured.result,
      uploadMiB: (a.size + b.size) / MiB,
      rssGrowthMiB: measured.rssGrowthMiB,
      heapGrowthMiB: measured.heapGrowthMiB,
    };
  };

  /**
   * §17: a zip of TRACK_FILES one-hour watch files imported, then the same files only decoded here
   * with the FIT SDK, one after another: with its default options (the target's measure) and with
   * the options the parser uses (fewer conversions: a stricter comparison, shown beside it).
   */
  /**
   * The same hour's run (1 Hz: position, distance, elevation, heart rate, cadence) as FIT, GPX
   * and TCX, each imported by FORMAT_ROUNDS new runners after one import that warms the parse
   * thread; the median time of each, and the ratio of GPX's and TCX's to FIT's (target <= 4).
   */
  const formatsOfOneRun = async () => {
    const start = new Date(FIRST);
    const points = Array.from({ length: 3601 }, (_, t) => ({
      t,
      lat: 48.85 + t * 0.00003,
      lon: 2.35 + Math.sin(t / 100) * 0.001,
      ele: 50 + (t % 30),
      hr: 140 + (t % 20),
      cad: 85,
      distance: t * 3,
    }));
    const files: Record<'fit' | 'gpx' | 'tcx', Uint8Array | string> = {
      fit: fitFile([
        {
          start,
          metres: 10_800,
          timerSeconds: 3600,
          elapsedSeconds: 3600,
          records: points.map((p) => ({ ...p, enhancedAltitude: p.ele, heartRate: p.hr, cadence: p.cad })),
        },
      ]),
      gpx: gpxFile({ start, segments: [points] }),
      tcx: tcxFile({
        start,
        laps: [
          {
            metres: 10_800,
            seconds: 3600,
            tracks: [points.map((p) => ({ ...p, altitude: p.ele, cadence: p.cad }))],
          },
        ],
      }),
    };
    await importOne(await register(), 'warm.fit', files.fit);
    const seconds: Record<string, number[]> = { fit: [], gpx: [], tcx: [] };
    for (let round = 0; round < FORMAT_ROUNDS; round++) {
      for (const kind of ['fit', 'gpx', 'tcx'] as const) {
        const imported = await importOne(await register(), `run.${kind}`, files[kind]);
        if (imported.created !== 1) throw new Error(`the ${kind} file gave ${imported.created} runs`);
        seconds[kind]!.push(imported.seconds);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const fit = median(seconds.fit!);
    const targets: Target[] = (['gpx', 'tcx'] as const).map((kind) => ({
      target: `a one-hour ${kind.toUpperCase()} imports within 4 times the time of the same run as FIT`,
      pass: median(seconds[kind]!) <= 4 * fit,
      detail: `${(median(seconds[kind]!) * 1000).toFixed(0)} ms against ${(fit * 1000).toFixed(0)} ms: x${(median(seconds[kind]!) / fit).toFixed(2)}`,
    }));
    const bytes = (content: Uint8Array | string) =>
      typeof content === 'string' ? Buffer.byteLength(content) : content.length;
    console.log(
      `One hour's run, median of ${FORMAT_ROUNDS} imports: ` +
        (['fit', 'gpx', 'tcx'] as const)
          .map(
            (k) =>
              `${k.toUpperCase()} (${(bytes(files[k]) / 1024).toFixed(0)} KiB) ${(median(seconds[k]!) * 1000).toFixed(0)} ms`,
          )
          .join(', '),
    );
    for (const t of targets) console.log(`  ${t.pass ? 'PASS' : 'FAIL'}  ${t.target}: ${t.detail}`);
    return { rounds: FORMAT_ROUNDS, seconds, targets };
  };

  /** The runner of trackImport's watch files, whose runs the zip export then writes out. */
  let tracksOwner: string | null = null;
  const trackImport = async (): Promise<TrackImportResult> => {
    const made = await watchFiles(TRACK_FILES, TRACK_FILE_SECONDS);
    const fileBytes = Object.values(made.files).reduce((sum, bytes) => sum + bytes.length, 0);
    console.log(
      `${TRACK_FILES} watch files of an hour at 1 Hz (${(fileBytes / MiB).toFixed(1)} MiB): ` +
        (made.built > 0 ? `${made.built} written in ${made.builtSeconds.toFixed(1)} s` : 'read from bench/.tmp'),
    );
    const upload = zip(made.files);
    const email = `bench-tracks-${Date.now()}@example.com`;
    const token = await register(email);
    tracksOwner = token;
    const measured = await withRss(() => importOne(token, 'watch.zip', upload));
    const imported = measured.result;
    if (imported.created !== TRACK_FILES) throw new Error(`the watch files gave ${imported.created} runs`);
    const filesPerSecond = imported.created / imported.seconds;

    const decodeRate = (decode: (bytes: Uint8Array) => void) => {
      const all = Object.values(made.files);
      for (const bytes of all.slice(0, 5)) decode(bytes);
      const started = performance.now();
      for (const bytes of all) decode(bytes);
      return all.length / ((performance.now() - started) / 1000);
    };
    const sdkDecoding = decodeRate((bytes) => {
      const { errors } = new Decoder(Stream.fromByteArray(bytes)).read();
      if (errors.length > 0) throw new Error(`the FIT SDK could not decode a watch file: ${String(errors[0])}`);
    });
    const parserDecoding = decodeRate((bytes) => decodeFit(bytes));
    const sizes = await trackSizes(scratch.url, email);
    const rssGrowthMB = (measured.rssGrowthMiB * MiB) / MB;
    const targets: Target[] = [
      {
        target: 'watch files imported >= 25 files/s',
        pass: filesPerSecond >= 25,
        detail: `${filesPerSecond.toFixed(1)} files/s`,
      },
      {
        target: "the import >= half the rate of decoding alone with the FIT SDK's Decoder",
        pass: filesPerSecond >= sdkDecoding / 2,
        detail:
          `decoding alone ${sdkDecoding.toFixed(1)} files/s (default options), import x${(filesPerSecond / sdkDecoding).toFixed(2)}; ` +
          `with the parser's options ${parserDecoding.toFixed(1)} files/s, import x${(filesPerSecond / parserDecoding).toFixed(2)}`,
      },
      {
        target: "the server's RSS grows by <= 150 MB",
        pass: rssGrowthMB <= 150,
        detail: `${rssGrowthMB.toFixed(1)} MB (${measured.rssBeforeMiB} -> peak ${measured.rssPeakMiB} MiB)`,
      },
      {
        target: `stored size of a track <= ${TRACK_BYTES_PER_HOUR_TARGET / 1000} KB per hour of samples`,
        pass:
          sizes.bytesPerHour <= TRACK_BYTES_PER_HOUR_TARGET &&
          sizes.worstHourLongBytesPerHour <= TRACK_BYTES_PER_HOUR_TARGET,
        detail: describeTrackSizes(sizes),
      },
    ];
    console.log(
      `Zip of ${TRACK_FILES} watch files (${(upload.length / MiB).toFixed(1)} MiB): ${imported.created} runs with tracks in ` +
        `${imported.seconds.toFixed(2)} s = ${filesPerSecond.toFixed(1)} files/s; decoding alone ${sdkDecoding.toFixed(1)} files/s ` +
        `(the parser's options: ${parserDecoding.toFixed(1)}); server RSS growth ${measured.rssGrowthMiB} MiB ` +
        `(V8 heap peak growth ${measured.heapGrowthMiB} MiB)`,
    );
    for (const t of targets) console.log(`  ${t.pass ? 'PASS' : 'FAIL'}  ${t.target}: ${t.detail}`);
    return {
      files: TRACK_FILES,
      secondsPerFile: TRACK_FILE_SECONDS,
      uploadMiB: upload.length / MiB,
      ...imported,
      filesPerSecond,
      decodeOnlyFilesPerSecond: sdkDecoding,
      parserDecodeFilesPerSecond: parserDecoding,
      rssGrowthMiB: measured.rssGrowthMiB,
      rssBeforeMiB: measured.rssBeforeMiB,
      rssPeakMiB: measured.rssPeakMiB,
      heapGrowthMiB: measured.heapGrowthMiB,
      trackSizes: sizes,
      targets,
    };
  };

  /**
   * The zip export of the runner whose TRACK_FILES one-hour watch files trackImport imported: its
   * runs' JSON, then every original file, streamed.
   */
  const zipExport = async (runner: string) => {
    const measured = await withRss(async () => {
      const started = performance.now();
      const res = await fetch(api('/export?format=zip'), {
        headers: { authorization: `Bearer ${runner}` },
        signal: longRequest(),
      });
      if (res.status !== 200 || res.headers.get('content-type') !== 'application/zip') {
        throw new Error(`the zip export answered ${res.status} ${res.headers.get('content-type')}`);
      }
      let bytes = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
      return { seconds: (performance.now() - started) / 1000, bytes };
    });
    const { seconds, bytes } = measured.result;
    const trackedRunsPerSecond = Math.round(TRACK_FILES / seconds);
    console.log(
      `Zip export of ${TRACK_FILES} tracked runs (${(bytes / MiB).toFixed(1)} MiB): ${seconds.toFixed(2)} s = ` +
        `${trackedRunsPerSecond} tracked runs/s (target 200), server RSS growth ${measured.rssGrowthMiB} MiB (target 50; ` +
        `V8 heap peak growth ${measured.heapGrowthMiB} MiB)`,
    );
    return {
      seconds,
      bytes,
      trackedRunsPerSecond,
      rssGrowthMiB: measured.rssGrowthMiB,
      rssBeforeMiB: measured.rssBeforeMiB,
      rssPeakMiB: measured.rssPeakMiB,
      heapGrowthMiB: measured.heapGrowthMiB,
    };
  };

  try {
    if (selected('strava-csv')) {
      const rows: StravaRow[] = Array.from({ length: CSV_ROWS }, (_, i) => ({
        id: i + 1,
        start: new Date(FIRST + Math.floor(i / 3) * DAY + (i % 3) * 3 * 3600_000),
        name: i % 10 === 0 ? `Long, "steady" run ${i}` : `Run ${i}`,
        type: i % 7 === 0 ? 'Ride' : 'Run',
        metres: 5000 + (i % 50) * 100,
        moving: 1500 + (i % 50) * 30,
        elapsed: 1600 + (i % 50) * 30,
      }));
      const csv = stravaCsv(rows);
      const stravaToken = await register();
      const measured = await withRss(() => importOne(stravaToken, 'activities.csv', csv));
      const strava = measured.result;
      results.stravaCsv = { ...strava, rssGrowthMiB: measured.rssGrowthMiB };
      console.log(
        `Strava CSV, ${CSV_ROWS} rows: ${strava.created} runs in ${strava.seconds.toFixed(2)} s = ${strava.runsPerSecond} runs/s, RSS growth ${measured.rssGrowthMiB} MiB`,
      );
    }

    if (selected('fit-zip')) {
      const files: Record<string, Uint8Array> = {};
      for (let i = 0; i < FIT_FILES; i++) {
        files[`activities/${i}.fit`] = fitActivity({
          start: new Date(FIRST + i * DAY),
          metres: 8000 + i,
          timerSeconds: 2400 + i,
        });
      }
      const fit = await importOne(await register(), 'export.zip', zip(files));
      results.fitZip = fit;
      console.log(
        `Zip of ${FIT_FILES} FIT files: ${fit.created} runs in ${fit.seconds.toFixed(2)} s = ${fit.runsPerSecond} runs/s`,
      );
    }

    if (TRACK_FILES > 0 && selected('tracks')) results.tracks = await trackImport();

    if (selected('formats')) results.formats = await formatsOfOneRun();

    if (selected('own-csv')) {
      const owner = await register();
      const seeded = await withRss(() => importOne(owner, 'own.csv', ownCsv(EXPORT_RUNS)));
      results.ownCsv = { ...seeded.result, rssGrowthMiB: seeded.rssGrowthMiB };
      console.log(
        `Own CSV, ${EXPORT_RUNS} rows: ${seeded.result.runsPerSecond} runs/s, RSS growth ${seeded.rssGrowthMiB} MiB`,
      );

      for (const format of ['csv', 'json'] as const) {
        const measured = await withRss(async () => {
          const started = performance.now();
          const res = await fetch(api(`/export?format=${format}`), {
            headers: { authorization: `Bearer ${owner}` },
            signal: longRequest(),
          });
          let bytes = 0;
          let newlines = 0;
          for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
            bytes += chunk.length;
            for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines += 1;
          }
          return { seconds: (performance.now() - started) / 1000, bytes, newlines };
        });
        const { seconds, bytes } = measured.result;
        const runsPerSecond = Math.round(EXPORT_RUNS / seconds);
        results[`export_${format}`] = { seconds, bytes, runsPerSecond, rssGrowthMiB: measured.rssGrowthMiB };
        console.log(
          `Export ${format.toUpperCase()}, ${EXPORT_RUNS} runs (${(bytes / MiB).toFixed(1)} MiB): ${seconds.toFixed(2)} s = ${runsPerSecond} runs/s, RSS growth ${measured.rssGrowthMiB} MiB`,
        );
      }
    }

    if (tracksOwner && selected('export-zip')) results.exportZip = await zipExport(tracksOwner);

    if (LARGE_MIB > 0 && selected('large')) results.large = await largeImport();

    if (selected('inbox')) {
      results.inbox = await inboxBench({
        databaseUrl: scratch.url,
        register: (apiBase) =>
          registerAt(apiBase, `bench-inbox-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`),
        inboxes: INBOX_IDLE,
        idleSeconds: INBOX_IDLE_SECONDS,
        drops: INBOX_DROPS,
        folderFiles: TRACK_FILES,
        probeIntervalMs: PROBE_INTERVAL_MS,
        rounds: Number(args['inbox-rounds']),
      });
    }

    if (HUGE_ROWS > 0 && selected('huge')) results.hugeRequest = await hugeRequest();

    // Last: a hostile file may take the server down (it is started again for the next part).
    await stallParts();
    await hostileParts();
    if (others.length > 0) {
      results.others = {
        intervalMs: PROBE_INTERVAL_MS,
        drainSeconds: PROBE_DRAIN_S,
        itemTimeoutSeconds: ITEM_TIMEOUT_S,
        stallRuns: STALL_RUNS,
        stallFitFiles: STALL_FIT_FILES,
        hostileScale: HOSTILE_SCALE,
        items: others,
      };
      results.targets = others.flatMap((item) =>
        item.targets.map((t): Target => ({ ...t, target: `${item.label}: ${t.target}` })),
      );
      console.log(
        `\nOthers during long work and hostile files on ${scratch.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}, ` +
          `${os.availableParallelism()} cores, load average ${loadAverageAtStart[0]} at the start, ` +
          `${os.loadavg()[0]!.toFixed(2)} now ` +
          `(another runner every ${PROBE_INTERVAL_MS} ms, open-loop; slowest and p99 in ms from the scheduled send; ` +
          `targets: write <= ${SLOWEST_WRITE_MS} ms, read <= ${SLOWEST_READ_MS} ms, health <= ${SLOWEST_HEALTH_MS} ms, no 5xx, ` +
          `the server alive, its RSS 5 s after within ${RSS_AFTER_MB} MB of before):\n`,
      );
      for (const line of othersTable(others)) console.log(line);
      const failed = others.flatMap((item) => item.targets.filter((t) => !t.pass)).length;
      console.log(`\n${failed} of ${others.length * others[0]!.targets.length} targets failed.`);
    }
  } finally {
    results.loadAverageAtEnd = os.loadavg().map((l) => Math.round(l * 100) / 100);
    await server.stop();
    fs.rmSync(temp, { recursive: true, force: true });
    await scratch.drop();
  }
  const dir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(
    dir,
    `${new Date().toISOString().replace(/[:.]/g, '-')}-import-${String(results.dialect)}.json`,
  );
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`Results: ${path.relative(process.cwd(), file)}`);
}

await main();
