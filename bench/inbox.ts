/**
 * The inbox folder's figures (CONTRACT.md §23), the part `inbox` of `npm run bench:import`: a
 * server of its own (the production build, INBOX_DIR set, §20's timing) on the bench's database.
 * - idle: the CPU the server spends over `idleSeconds` with 2,000 empty inboxes (utime + stime of
 *   its process from /proc, as process.cpuUsage counts them), target under 2% of a core;
 * - drop: 50 files dropped one at a time into an idle inbox (written under a .tmp name, then
 *   renamed, as Syncthing does), each timed until its report is in done/: p99 target <= 10 s;
 * - folder: 200 one-hour FIT files recorded every second dropped at once, files/s (§17's rate: 25).
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
import { startProbedServer } from './lib/probed-server.js';
import { watchFiles } from './lib/watch-files.js';

export interface InboxBenchOptions {
  databaseUrl: string;
  /** A sign-in token of a new runner on a server of this database (through /auth/register). */
  register: (apiBase: string) => Promise<string>;
  inboxes: number;
  idleSeconds: number;
  drops: number;
  folderFiles: number;
}

interface Target {
  target: string;
  pass: boolean;
  detail: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CLOCK_TICKS = 100;

/** utime + stime of a process, seconds (/proc/<pid>/stat, fields 14 and 15). */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

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
    const server = await startProbedServer({
      DATABASE_URL: options.databaseUrl,
      LOG_LEVEL: 'warn',
      WEB_ROOT: '',
      INBOX_DIR: root,
    });
    try {
      // Idle: the start's work done, then the CPU of `idleSeconds` of nothing but the scans.
      await sleep(10_000);
      const before = cpuSeconds(server.pid);
      await sleep(options.idleSeconds * 1000);
      const idleShare = (cpuSeconds(server.pid) - before) / options.idleSeconds;
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

      // A folder of one-hour watch files dropped at once.
      const { files } = await watchFiles(options.folderFiles, 3600);
      const names = Object.keys(files);
      const started = performance.now();
      for (const name of names) drop(dir, name, files[name]!);
      const all = await until(
        () =>
          fs.readdirSync(path.join(dir, 'done')).filter((n) => n.startsWith('run-') && n.endsWith('.txt')).length >=
          names.length,
        600,
      );
      const seconds = (performance.now() - started) / 1000;
      const failed = fs.readdirSync(path.join(dir, 'failed')).filter((n) => n.endsWith('.txt')).length;
      const filesPerSecond = Math.round((names.length / seconds) * 10) / 10;
      targets.push({
        target: `a folder of ${names.length} one-hour FIT files at §17's rate (25 files/s)`,
        pass: all && failed === 0 && filesPerSecond >= 25,
        detail: `${filesPerSecond} files/s (${seconds.toFixed(1)} s, from the drop to the last report; ${failed} failed)`,
      });
      console.log(
        `Inbox folder: ${names.length} one-hour FIT files in ${seconds.toFixed(1)} s = ${filesPerSecond} files/s`,
      );

      // The same files as one zip through POST /import, for a new runner, on the same server now:
      // the machine is shared, so the inbox's rate is given beside the upload's of the same moment.
      const uploader = await options.register(`${server.url}/api/v1`);
      const { payload, contentType } = multipartBody([{ name: 'watch.zip', content: zip(files) }]);
      const uploadStarted = performance.now();
      const uploaded = await fetch(`${server.url}/api/v1/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${uploader}`, 'content-type': contentType, accept: 'application/json' },
        body: payload,
      });
      await uploaded.arrayBuffer();
      const uploadSeconds = (performance.now() - uploadStarted) / 1000;
      const uploadRate = Math.round((names.length / uploadSeconds) * 10) / 10;
      const ratio = Math.round((filesPerSecond / uploadRate) * 100) / 100;
      targets.push({
        target: 'the inbox folder at the rate of the same files uploaded as one zip (same server, same moment)',
        pass: uploaded.status === 201 && ratio >= 0.8,
        detail: `inbox ${filesPerSecond} files/s, upload ${uploadRate} files/s (${uploadSeconds.toFixed(1)} s, status ${uploaded.status}): ${ratio} of it`,
      });
      console.log(
        `Upload of the same ${names.length} files as one zip: ${uploadRate} files/s; the inbox at ${ratio} of it`,
      );
      for (const t of targets) console.log(`  ${t.pass ? 'PASS' : 'FAIL'}  ${t.target}: ${t.detail}`);
      return {
        idle,
        drops,
        folder: { files: names.length, seconds, filesPerSecond, failed },
        upload: { seconds: uploadSeconds, filesPerSecond: uploadRate, status: uploaded.status },
        targets,
      };
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
