/**
 * The inbox folder's figures (CONTRACT.md §23), the part `inbox` of `npm run bench:import`: a
 * server of its own (the production build, INBOX_DIR set, §20's timing) on the bench's database.
 * - idle: the CPU the server spends over `idleSeconds` with 2,000 empty inboxes (utime + stime of
 *   its process from /proc, as process.cpuUsage counts them), target under 2% of a core;
 * - drop: 50 files dropped one at a time into an idle inbox (written under a .tmp name, then
 *   renamed, as Syncthing does), each timed until its report is in done/: p99 target <= 10 s;
 * - folder: 200 one-hour FIT files recorded every second dropped at once, files/s (§17's rate: 25)
 *   from the moment §20 lets the last of them be read (2 s after it was written: every file must
 *   be still for 2 s first) to the last report, and from the first drop (the wait included);
 *   meanwhile another runner is probed open-loop (lib/open-loop.ts: a write, a read and
 *   GET /api/health every `probeIntervalMs`, the slowest of each; targets as the stall parts'),
 *   then the same files as one zip through POST /import on the same server, for the ratio.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../server/db/connection.js';
import { newFeedKey as newKey } from '../server/features/calendar/calendar.service.js';
import { putKey } from '../server/features/inbox/inbox.repository.js';
import { insertAccount } from '../server/features/users/users.service.js';
import { fitActivity } from '../server/test/imports/fit-fixtures.js';
import { multipartBody, zip } from '../server/test/imports/fixtures.js';
import { startOpenLoop, type OpenLoopResult } from './lib/open-loop.js';
import { SLOWEST_HEALTH_MS, SLOWEST_READ_MS, SLOWEST_WRITE_MS } from './lib/others-during.js';
import { startServer } from './lib/server.js';
import { watchFiles } from './lib/watch-files.js';

export interface InboxBenchOptions {
  databaseUrl: string;
  /** A sign-in token of a new runner on a server of this database (through /auth/register). */
  register: (apiBase: string) => Promise<string>;
  inboxes: number;
  idleSeconds: number;
  drops: number;
  folderFiles: number;
  /** The other runner's schedule during the folder's import (ms between sends). */
  probeIntervalMs: number;
  /** Rounds of the folder and the upload of the same files (the medians are reported). */
  rounds: number;
}

interface Round {
  complete: boolean;
  failed: number;
  /** From the first drop to the last report. */
  seconds: number;
  /** From 2 s after the last file was written (when §20 lets it be read) to the last report. */
  importSeconds: number;
  filesPerSecond: number;
  endToEndFilesPerSecond: number;
  uploadSeconds: number;
  uploadFilesPerSecond: number;
  /** The inbox's rate over the upload's. */
  ratio: number;
  uploadStatus: number;
  loadAverage: number;
  others: OpenLoopResult;
}

interface Target {
  target: string;
  pass: boolean;
  detail: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `count` runners with an empty inbox each, written straight to the database and the folder. */
async function seedIdleInboxes(databaseUrl: string, root: string, count: number): Promise<void> {
  const db = openDatabase(databaseUrl);
  try {
    const now = new Date().toISOString();
    const stamp = Date.now();
    for (let at = 0; at < count; at += 200) {
      await db.kysely.transaction().execute(async (trx) => {
        for (let i = at; i < Math.min(count, at + 200); i++) {
          const user = await insertAccount(trx, {
            name: `Idle ${i}`,
            email: `idle-${stamp}-${i}@example.com`,
            role: 'user',
            timezone: 'UTC',
            passwordHash: 'not-a-hash',
            createdAt: now,
          });
          const key = newKey();
          await putKey(trx, user.id, key, now);
          for (const sub of ['', 'done', 'failed']) fs.mkdirSync(path.join(root, key, sub), { recursive: true });
        }
      });
    }
  } finally {
    await db.close();
  }
}

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
};

/** Writes a file as a sync tool does: under a dotted .tmp name, then renamed into place. */
function drop(dir: string, name: string, bytes: Uint8Array): void {
  const tmp = path.join(dir, `.${name}.tmp`);
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, path.join(dir, name));
}

async function until(done: () => boolean, seconds: number): Promise<boolean> {
  const end = performance.now() + seconds * 1000;
  while (!done()) {
    if (performance.now() > end) return false;
    await sleep(20);
  }
  return true;
}

export async function inboxBench(options: InboxBenchOptions): Promise<Record<string, unknown>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-inbox-'));
  const targets: Target[] = [];
  try {
    await seedIdleInboxes(options.databaseUrl, root, options.inboxes);
    // The server as an operator runs it: the other parts' heap probe (lib/probed-server.ts) wakes
    // 50 times a second, which alone cost about 2% of a core here, more than the inboxes.
    const server = await startServer({
      DATABASE_URL: options.databaseUrl,
      LOG_LEVEL: 'warn',
      WEB_ROOT: '',
      INBOX_DIR: root,
    });
    try {
      // Idle: the start's work done, then the CPU of `idleSeconds` of nothing but the scans.
      await sleep(10_000);
      const before = server.cpuMs();
      await sleep(options.idleSeconds * 1000);
      const idleShare = (server.cpuMs() - before) / 1000 / options.idleSeconds;
      const idle = {
        inboxes: options.inboxes,
        seconds: options.idleSeconds,
        coreShare: Math.round(idleShare * 10_000) / 10_000,
      };
      targets.push({
        target: `${options.inboxes} idle inboxes cost under 2% of a core`,
        pass: idleShare < 0.02,
        detail: `${(idleShare * 100).toFixed(2)}% of a core over ${options.idleSeconds} s`,
      });
      console.log(`Inbox idle: ${options.inboxes} empty inboxes, ${(idleShare * 100).toFixed(2)}% of a core`);

      const token = await options.register(`${server.url}/api/v1`);
      const made = await fetch(`${server.url}/api/v1/inbox`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      const folder = ((await made.json()) as { inbox: { folder: string } }).inbox.folder;
      const dir = path.join(root, folder);

      // Drops into an idle inbox, one at a time.
      const latencies: number[] = [];
      for (let i = 0; i < options.drops; i++) {
        const name = `drop-${i}.fit`;
        const bytes = fitActivity({
          start: new Date(Date.UTC(2020, 0, 1 + i, 7)),
          metres: 10_000 + i,
          timerSeconds: 3000 + i,
        });
        const started = performance.now();
        drop(dir, name, bytes);
        const arrived = await until(() => fs.existsSync(path.join(dir, 'done', `${name}.txt`)), 60);
        latencies.push(arrived ? (performance.now() - started) / 1000 : Number.POSITIVE_INFINITY);
      }
      const dropP99 = p99(latencies);
      const drops = {
        count: options.drops,
        p50Seconds:
          Math.round(
            p99(
              latencies
                .slice()
                .sort((a, b) => a - b)
                .slice(0, Math.ceil(latencies.length / 2)),
            ) * 100,
          ) / 100,
        p99Seconds: Math.round(dropP99 * 100) / 100,
        maxSeconds: Math.round(Math.max(...latencies) * 100) / 100,
      };
      targets.push({
        target: 'a file dropped into an idle inbox is imported within 10 s (p99)',
        pass: dropP99 <= 10,
        detail: `p99 ${drops.p99Seconds} s, median ${drops.p50Seconds} s over ${options.drops} drops`,
      });
      console.log(`Inbox drops: p99 ${drops.p99Seconds} s, median ${drops.p50Seconds} s, max ${drops.maxSeconds} s`);

      // Rounds of: a folder of one-hour watch files dropped at once into a new runner's inbox,
      // another runner probed meanwhile; then the same files as one zip through POST /import for
      // another new runner. The machine is shared and its load moves by the second: the inbox's
      // rate is compared with the upload's of the same round, and the medians are reported.
      const { files } = await watchFiles(options.folderFiles, 3600);
      const names = Object.keys(files);
      const upload = zip(files);
      const rounds: Round[] = [];
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      for (let round = 0; round < options.rounds; round++) {
        const owner = await options.register(`${server.url}/api/v1`);
        const opened = await fetch(`${server.url}/api/v1/inbox`, {
          method: 'POST',
          headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
          body: '{}',
        });
        const into = path.join(root, ((await opened.json()) as { inbox: { folder: string } }).inbox.folder);
        const probe = await startOpenLoop({
          url: server.url,
          token: await options.register(`${server.url}/api/v1`),
          intervalMs: options.probeIntervalMs,
          maxSeconds: 660,
          drainSeconds: 60,
          firstRun: 0,
        });
        const started = performance.now();
        for (const name of names) drop(into, name, files[name]!);
        // §20: a file is read once still for 2 s; the last one written may be read from then on.
        const readable = performance.now() + 2000;
        const all = await until(
          () =>
            fs.readdirSync(path.join(into, 'done')).filter((n) => n.startsWith('run-') && n.endsWith('.txt')).length >=
            names.length,
          600,
        );
        const ended = performance.now();
        const others = await probe.stop();
        const failed = fs.readdirSync(path.join(into, 'failed')).filter((n) => n.endsWith('.txt')).length;

        const uploader = await options.register(`${server.url}/api/v1`);
        const { payload, contentType } = multipartBody([{ name: 'watch.zip', content: upload }]);
        const uploadStarted = performance.now();
        const uploaded = await fetch(`${server.url}/api/v1/import`, {
          method: 'POST',
          headers: { authorization: `Bearer ${uploader}`, 'content-type': contentType, accept: 'application/json' },
          body: payload,
        });
        await uploaded.arrayBuffer();
        const uploadSeconds = (performance.now() - uploadStarted) / 1000;
        const one: Round = {
          complete: all && failed === 0 && uploaded.status === 201,
          failed,
          seconds: (ended - started) / 1000,
          importSeconds: (ended - readable) / 1000,
          filesPerSecond: names.length / ((ended - readable) / 1000),
          endToEndFilesPerSecond: names.length / ((ended - started) / 1000),
          uploadSeconds,
          uploadFilesPerSecond: names.length / uploadSeconds,
          ratio: uploadSeconds / ((ended - readable) / 1000),
          uploadStatus: uploaded.status,
          loadAverage: Math.round(os.loadavg()[0]! * 100) / 100,
          others,
        };
        rounds.push(one);
        console.log(
          `Inbox folder, round ${round + 1}: ${names.length} one-hour FIT files in ${one.importSeconds.toFixed(1)} s once readable = ` +
            `${one.filesPerSecond.toFixed(1)} files/s (${one.seconds.toFixed(1)} s from the first drop); upload of the same as one zip ` +
            `${one.uploadFilesPerSecond.toFixed(1)} files/s: the inbox at ${one.ratio.toFixed(2)} of it; the other runner's slowest ` +
            `write ${Math.round(others.write.slowestMs)} ms, read ${Math.round(others.read.slowestMs)} ms, health ` +
            `${Math.round(others.health.slowestMs)} ms (load average ${one.loadAverage})`,
        );
      }
      const rate = median(rounds.map((r) => r.filesPerSecond));
      const ratio = median(rounds.map((r) => r.ratio));
      const complete = rounds.every((r) => r.complete);
      // §17's 25 files/s is SQLite's; on PostgreSQL the rate is reported, and held to the upload's below.
      const sqlite = !/^postgres(ql)?:/.test(options.databaseUrl);
      targets.push({
        target: sqlite
          ? `a folder of ${names.length} one-hour FIT files at §17's rate (25 files/s, once §20 lets them be read)`
          : `a folder of ${names.length} one-hour FIT files imported whole (§17's 25 files/s is SQLite's; the rate, reported)`,
        pass: complete && (!sqlite || rate >= 25),
        detail:
          `median ${rate.toFixed(1)} files/s over ${rounds.length} rounds (` +
          rounds.map((r) => `${r.filesPerSecond.toFixed(1)}`).join(', ') +
          `; from the first drop, the wait included: ${median(rounds.map((r) => r.endToEndFilesPerSecond)).toFixed(1)}` +
          `; ${rounds.reduce((n, r) => n + r.failed, 0)} failed)`,
      });
      targets.push({
        target: 'the inbox folder at the rate of the same files uploaded as one zip (same server, same round)',
        pass: complete && ratio >= 0.8,
        detail:
          `median ratio ${ratio.toFixed(2)} (` +
          rounds.map((r) => `${r.filesPerSecond.toFixed(1)} / ${r.uploadFilesPerSecond.toFixed(1)}`).join(', ') +
          ' files/s)',
      });
      for (const [what, limit] of [
        ['write', SLOWEST_WRITE_MS],
        ['read', SLOWEST_READ_MS],
        ['health', SLOWEST_HEALTH_MS],
      ] as const) {
        const kinds = rounds.map((r) => r.others[what]);
        const slowest = Math.max(...kinds.map((k) => k.slowestMs));
        const bad = kinds.reduce((n, k) => n + k.serverErrors + k.failed + k.unanswered, 0);
        targets.push({
          target: `during the folder's import, the other runner's slowest ${what} <= ${limit / 1000} s, no 5xx, every request answered`,
          pass: slowest <= limit && bad === 0,
          detail:
            `${kinds[0]!.request} every ${options.probeIntervalMs} ms, open-loop: slowest ${Math.round(slowest)} ms ` +
            `(p99 per round ${kinds.map((k) => Math.round(k.p99Ms)).join(', ')} ms; ` +
            `${kinds.reduce((n, k) => n + k.sent, 0)} sent, ${bad} 5xx or unanswered)`,
        });
      }
      for (const t of targets) console.log(`  ${t.pass ? 'PASS' : 'FAIL'}  ${t.target}: ${t.detail}`);
      return { idle, drops, folder: { files: names.length, rounds }, targets };
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
