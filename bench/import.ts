/**
 * npm run bench:import -- [--csv-rows N] [--fit-files F] [--track-files W] [--export-runs E] [--large-mib M]
 *                         [--load-seconds S] [--stall-runs R] [--stall-seconds T] [--huge-rows H] [--skip-build]
 *
 * Import and export throughput (CONTRACT.md §9, §12) on a fresh database of the kind of
 * DATABASE_URL (a SQLite file by default, or a new database on the PostgreSQL server of a
 * postgres:// URL), through the production build (`npm run build:server` first, unless
 * --skip-build) running as a process of its own with the default configuration. Its memory is
 * read from outside (lib/probed-server.ts): the peak resident memory from /proc, and the V8
 * heap of its main thread through a preloaded probe; the client's memory is never counted:
 * - a Strava activities.csv of N rows (default 10,000), runs/s;
 * - a zip of F FIT activities (default 200), runs/s;
 * - tracks (CONTRACT.md §17): a zip of W watch FIT files (default 200) of one hour recorded every
 *   second (position, distance, elevation, heart rate, cadence; lib/watch-files.ts, kept in
 *   bench/.tmp once made): files/s (target >= 25), against the rate at which this process only
 *   decodes the same files with the FIT SDK's Decoder, one after another (target: the import at
 *   least half of it), the server's RSS growth (target <= 150 MB) and the stored size of their
 *   tracks per hour of samples (target <= 25 KB);
 * - the CSV and JSON exports of a runner with E runs (default 100,000; seeded by importing
 *   this server's own CSV, itself measured), runs/s and the growth of the server's RSS
 *   while streaming;
 * - the zip export (§16) of a runner with Z tracked runs (default 200; each a one-hour FIT file
 *   recorded every second, as §17's import; imported as a zip, itself measured; the files are
 *   made once and kept in bench/.tmp), tracked runs/s and the growth of the server's RSS
 *   (targets: at least 200 tracked runs/s, at most 50 MB);
 * - this server's own CSV with long notes, written to a temporary folder until it is M MiB
 *   (default 190, under IMPORT_MAX_BYTES, 1 GiB by default, which the server keeps here),
 *   imported from the file (the upload is read from disk, not held by the client): runs/s and
 *   RSS growth; meanwhile GET /api/v1/entry of another runner is loaded for S seconds (default
 *   30, within the import, which takes 35-60 s) by autocannon in a child process, and its p99
 *   is set beside the same load without an import.
 * - others served during long work: for T seconds (default 20), imports of R runs (default
 *   200,000; this server's own CSV, one new runner each, one after another) and then exports of
 *   the runner holding them (JSON, one after another) go on while another runner loads
 *   GET /api/health and POST /entry (autocannon, 5 connections each, in child processes): the
 *   p99 of each and the answers outside 2xx (targets: health p99 <= 100 ms, the other write's
 *   p99 <= 2 s, no 5xx);
 * - a request of two gzipped CSVs of H rows each (default 3,000,000; 0 skips it), as a dry run:
 *   its answer (a 413 past the rows of one import), its time and the server's memory.
 * The client reads each import's answer as a stream and keeps only its counts (an answer lists
 * every row: 100,000 rows are ~30 MB of JSON).
 * Kept apart from bench/run.ts, which loads read endpoints with autocannon: an import is one
 * long request whose cost is the work, not the stack.
 * Results go to the terminal and to bench/results/<time>-import-<dialect>.json.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { Decoder, Stream } from '@garmin/fitsdk';
import { loadInChild } from './lib/load-process.js';
import { describeTrackSizes, TRACK_BYTES_PER_HOUR_TARGET, trackSizes } from './lib/track-size.js';
import { watchFiles } from './lib/watch-files.js';
import type { Target, TrackImportResult } from './lib/report.js';
import { decodeFit } from '../server/features/imports/parsers/fit.js';
import { buildServer, startProbedServer, type Memory } from './lib/probed-server.js';
import { scratchDatabase } from '../scripts/support/scratch-database.js';
import { stravaCsv, zip, type StravaRow } from '../server/test/imports/fixtures.js';
import { fitActivity } from '../server/test/imports/fit-fixtures.js';

const { values: args } = parseArgs({
  options: {
    'csv-rows': { type: 'string', default: '10000' },
    'fit-files': { type: 'string', default: '200' },
    'track-files': { type: 'string', default: '200' },
    'export-runs': { type: 'string', default: '100000' },
    'large-mib': { type: 'string', default: '190' },
    'load-seconds': { type: 'string', default: '30' },
    'stall-runs': { type: 'string', default: '200000' },
    'stall-seconds': { type: 'string', default: '20' },
    'huge-rows': { type: 'string', default: '3000000' },
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
const STALL_RUNS = Number(args['stall-runs']);
const STALL_SECONDS = Number(args['stall-seconds']);
const HUGE_ROWS = Number(args['huge-rows']);

const DAY = 86_400_000;
const FIRST = Date.UTC(2012, 0, 1, 7, 0, 0);
const MiB = 1024 * 1024;
async function main() {
  const scratch = await scratchDatabase({ name: 'bench_import', baseUrl: process.env.DATABASE_URL });
  if (!args['skip-build']) buildServer();
  const server = await startProbedServer({ DATABASE_URL: scratch.url, LOG_LEVEL: 'warn', WEB_ROOT: '' });
  const withRss = async <T>(work: () => Promise<T>): Promise<{ result: T } & Memory> => {
    const { result, memory } = await server.measure(work);
    return { result, ...memory };
  };
  const origin = server.url;
  const base = `${origin}/api/v1`;
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    dialect: scratch.dialect,
    server: 'dist/server/main.js, a process of its own (RSS from /proc, V8 heap of its main thread)',
    csvRows: CSV_ROWS,
    fitFiles: FIT_FILES,
    trackFiles: TRACK_FILES,
    exportRuns: EXPORT_RUNS,
  };
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
  let n = 0;
  const register = async (email = `bench-${n + 1}-${Date.now()}@example.com`) => {
    n += 1;
    const body = {
      name: `Bench ${n}`,
      email,
      password: 'bench-password-1',
      password_confirmation: 'bench-password-1',
      timezone: 'UTC',
    };
    const res = await fetch(`${base}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`registration refused: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  /** POST /import of `files` (a dry run when asked); answers the status and body of a refusal. */
  const send = async (token: string, files: [string, Uint8Array | string | Blob][], dryRun = false) => {
    const form = new FormData();
    if (dryRun) form.append('dry_run', '1');
    for (const [name, bytes] of files) form.append('file', bytes instanceof Blob ? bytes : new Blob([bytes]), name);
    return fetch(`${base}/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
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
    return { created, seconds, runsPerSecond: Math.round(created / seconds), answerBytes };
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
        url: origin,
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
      url: origin,
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
      `Own CSV of ${fileMiB} MiB (${runs} rows): ${imported.created} runs in ${imported.seconds.toFixed(2)} s = ${imported.runsPerSecond} runs/s, ` +
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
   * Another runner's GET /api/health and POST /entry, loaded for STALL_SECONDS while `work` runs
   * again and again: the whole load falls within the work.
   */
  const othersDuring = async (label: string, work: () => Promise<unknown>) => {
    const other = await register();
    const load = (request: Parameters<typeof loadInChild>[0]['requests'][number]) =>
      loadInChild({ url: origin, requests: [request], connections: 5, duration: STALL_SECONDS });
    let loading = true;
    const rounds = (async () => {
      let n = 0;
      while (loading) {
        await work();
        n += 1;
      }
      return n;
    })();
    // A failed round ends the loop; its error is thrown once the loads are done, so that the
    // server is still stopped (an unhandled rejection would end this process and leave it running).
    rounds.catch(() => {
      loading = false;
    });
    const [health, write] = await Promise.all([
      load({ method: 'GET', path: '/api/health' }),
      load({
        method: 'POST',
        path: '/api/v1/entry',
        headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' },
        body: JSON.stringify({ date: '2020-01-01', distance: 5, time: '00:25:00' }),
      }),
    ]);
    loading = false;
    const worked = await rounds;
    const round = (ms: number) => Math.round(ms * 10) / 10;
    const serverErrors = (statuses: Record<string, number>) =>
      Object.entries(statuses).reduce((n, [status, count]) => n + (Number(status) >= 500 ? count : 0), 0);
    console.log(
      `During ${label} (${worked} in ${STALL_SECONDS} s): GET /api/health p99 ${round(health.p99)} ms (target 100), ` +
        `${health.failures} not 2xx (${serverErrors(health.statuses)} 5xx); another runner's POST /entry p99 ${round(write.p99)} ms ` +
        `(target 2000), ${write.failures} not 2xx (${serverErrors(write.statuses)} 5xx)`,
    );
    return { rounds: worked, health, write };
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
      const res = await fetch(`${base}/export?format=zip`, { headers: { authorization: `Bearer ${runner}` } });
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

    if (TRACK_FILES > 0) results.tracks = await trackImport();

    const owner = await register();
    const seeded = await withRss(() => importOne(owner, 'own.csv', ownCsv(EXPORT_RUNS)));
    results.ownCsv = { ...seeded.result, rssGrowthMiB: seeded.rssGrowthMiB };
    console.log(
      `Own CSV, ${EXPORT_RUNS} rows: ${seeded.result.runsPerSecond} runs/s, RSS growth ${seeded.rssGrowthMiB} MiB`,
    );

    for (const format of ['csv', 'json'] as const) {
      const measured = await withRss(async () => {
        const started = performance.now();
        const res = await fetch(`${base}/export?format=${format}`, { headers: { authorization: `Bearer ${owner}` } });
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

    if (tracksOwner) results.exportZip = await zipExport(tracksOwner);

    if (LARGE_MIB > 0) results.large = await largeImport();

    if (STALL_RUNS > 0 && STALL_SECONDS > 0) {
      const stallCsv = ownCsv(STALL_RUNS);
      let holder = '';
      results.duringImport = await othersDuring(`imports of ${STALL_RUNS} runs`, async () => {
        holder = await register();
        await importOne(holder, 'stall.csv', stallCsv);
      });
      results.duringExport = await othersDuring(`exports of ${STALL_RUNS} runs`, async () => {
        const res = await fetch(`${base}/export?format=json`, { headers: { authorization: `Bearer ${holder}` } });
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) void chunk;
      });
    }

    if (HUGE_ROWS > 0) results.hugeRequest = await hugeRequest();
  } finally {
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
