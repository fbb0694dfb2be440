/**
 * The inbox folders' reader (CONTRACT.md §20, decision 045). A periodic scan, no change events:
 * network shares deliver none, and the scan alone costs an idle server little (a folder's own
 * status is read each turn; its entries only when that status moved, while files wait to be still,
 * and once in a while in any case). A regular file whose size, modification time and inode have
 * not moved for `stableMs` is claimed by an atomic rename into a dotted name (of several servers on
 * one database, one wins; the others find it gone), opened without following links, checked
 * after opening, copied from that descriptor, imported by the import service as an upload is, and
 * moved to done/ or failed/ with its report. Nothing is written outside INBOX_DIR/<key>/.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { ImportRow } from '../../../core/imports.js';
import type { AppContext } from '../../context.js';
export { INBOX_TIMING, type InboxTiming } from '../../config.js';
import { AppError } from '../../errors.js';
import { importRuns } from '../imports/imports.service.js';
import * as folders from './inbox.repository.js';
import { DONE, FAILED } from './inbox.service.js';

/** Names left alone until renamed (a download or a sync tool's file still being written). */
const UNFINISHED = /\.(part|tmp|partial|crdownload)$/i;
const CLAIM = '.claim-';
/** A file the reader could not move to done/ or failed/ (not real folders) is set aside under this name. */
const SET_ASIDE = '.read-';
/** Upload folders are named so, with the process: removeLeftUploads clears those of stopped servers. */
const WORK_PREFIX = `running-times-import-${process.pid}-inbox-`;

const HOST = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);
/** This life of the process: a later process with the same id (a container's 1) tells its claims from ours. */
const LIFE = randomBytes(4).toString('hex');
/** A claim's name: `.claim-<host>-<pid>-<life>-<name>` (this process's life unless told). */
export const claimNameOf = (name: string, life = LIFE) => `${CLAIM}${HOST}-${process.pid}-${life}-${name}`;

interface Seen {
  size: number;
  mtimeMs: number;
  ino: number;
  /** When this state was first seen. */
  since: number;
  queued: boolean;
}

interface Folder {
  key: string;
  dir: string;
  stamp: string;
  listedAt: number;
  pending: Map<string, Seen>;
  /** A change event's watch on the folder (a hint to look sooner), or null: the scan alone. */
  watch: fs.FSWatcher | null;
  /** The folder's inode the watch was made on (a folder made again gets a new watch). */
  watchedIno: number;
}

interface Work {
  folder: Folder;
  name: string;
  seen: Seen;
  tooLarge: boolean;
}

interface Claimed extends Work {
  from: string;
  claim: string;
}

/** Activity files, imported several at a time; their rows' sources are their names (a `.gz`'s without it). */
const ACTIVITY = /\.(fit|tcx|gpx)(\.gz)?$/i;
const baseOf = (name: string) => name.replace(/\.gz$/i, '');
/** Files of one import at most. */
const BATCH = 50;
/** Batches imported at once (see drain). */
const AT_ONCE = 2;
/** A folder whose change events come is listed at most this often (a file written slowly sends many). */
const HINT_MS = 100;

export interface InboxReader {
  /** One scan now (tests and the bench): resolves when the files it found ready are imported. */
  scanNow(): Promise<void>;
  stop(): Promise<void>;
}

const errno = (error: unknown) => (error as { code?: string }).code;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errno(error) === 'EPERM';
  }
}

/** A path's status without following a link, or null when it is gone. */
function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    return null;
  }
}

/** A real folder: not a link to one. */
const isRealFolder = (dir: string) => lstatOrNull(dir)?.isDirectory() === true;

/** `name` with ` (n)` before its first dot (a name without one: at its end). */
export function numberedName(name: string, n: number): string {
  if (n < 2) return name;
  const dot = name.indexOf('.', 1);
  return dot < 0 ? `${name} (${n})` : `${name.slice(0, dot)} (${n})${name.slice(dot)}`;
}

/** A line of the report: tabs and line breaks of a name or a reason become spaces. */
const field = (text: string | number | null | undefined) => String(text ?? '').replace(/[\t\r\n]+/g, ' ');

const sizeText = (bytes: number) =>
  bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0
    ? `${bytes / 1024 ** 3} GiB`
    : bytes >= 1024 ** 2
      ? `${Math.round((bytes / 1024 ** 2) * 10) / 10} MiB`
      : `${Math.round(bytes / 1024)} KiB`;

const TOO_LARGE = (bytes: number) =>
  `The file is larger than ${sizeText(bytes)}, the most one import may be: it was not imported.`;
const NOT_REGULAR = 'The file became a link or a special file before it was read: it was left where it is.';
const UNREADABLE = 'The file could not be read.';

interface Outcome {
  rows: folders.StoredInboxRow[];
  done: boolean;
}

export function startInboxReader(ctx: AppContext, log: FastifyBaseLogger): InboxReader {
  const root = ctx.config.inboxDir!;
  const timing = ctx.config.inboxTiming;
  const folderByKey = new Map<string, Folder>();
  const queue: Work[] = [];
  /** Files to import on their own (an archive named as an activity file, a batch refused as a whole). */
  const solo = new Set<string>();
  let keysReadAt = -Infinity;
  let keysMoved = true;
  let stopped = false;
  let scanning: Promise<void> | null = null;
  let working: Promise<void> | null = null;
  ctx.memory.inboxKeysMoved = () => {
    keysMoved = true;
  };

  async function readKeys(): Promise<void> {
    const keys = new Set(await folders.allKeys(ctx.db));
    for (const [key, folder] of folderByKey) {
      if (!keys.has(key)) {
        unwatch(folder);
        folderByKey.delete(key);
      }
    }
    for (const key of keys) {
      if (!folderByKey.has(key)) {
        folderByKey.set(key, {
          key,
          dir: path.join(root, key),
          stamp: '',
          listedAt: -Infinity,
          pending: new Map(),
          watch: null,
          watchedIno: -1,
        });
      }
    }
  }

  /**
   * Change events, where the file system sends them (a local disk; not NFS or SMB shares): only a
   * hint to look at the folder now rather than at the next scan. What is read, when a file is
   * still, and how it is claimed stay the scan's; without events (a share, the watch limit
   * reached) nothing changes but the wait.
   */
  function watchFolder(folder: Folder, ino: number): void {
    if (folder.watchedIno === ino || stopped) return;
    unwatch(folder);
    folder.watchedIno = ino;
    try {
      const watch = fs.watch(folder.dir, { persistent: false }, () => hint(folder));
      watch.on('error', () => unwatch(folder));
      folder.watch = watch;
    } catch {
      // No watch (the limit of watches reached, a file system without events): the scan alone.
    }
  }

  function unwatch(folder: Folder): void {
    folder.watch?.close();
    folder.watch = null;
  }

  /** Folders to look at before the next scan, and the timer that will. */
  const due = new Set<Folder>();
  let dueTimer: NodeJS.Timeout | null = null;
  let dueAt = Infinity;

  /** Looks at `folder` at `at` (a hint: now; a file waiting to be still: when it will be). */
  function lookAt(folder: Folder, at: number): void {
    if (stopped) return;
    due.add(folder);
    if (dueTimer && dueAt <= at) return;
    if (dueTimer) clearTimeout(dueTimer);
    dueAt = at;
    dueTimer = setTimeout(
      () => {
        dueTimer = null;
        dueAt = Infinity;
        const folders = [...due];
        due.clear();
        void runTurn(folders);
      },
      Math.max(0, at - Date.now()),
    );
    dueTimer.unref();
  }

  function hint(folder: Folder): void {
    lookAt(folder, Math.max(Date.now(), folder.listedAt + HINT_MS));
  }

  /** Claims this process or a stopped one left (a stop during an import): given back to their names. */
  function giveBackClaim(folder: Folder, name: string, now: number): void {
    const match = /^\.claim-([0-9a-f]{8})-(\d+)-([0-9a-f]{8})-(.+)$/s.exec(name);
    if (!match) return;
    const [, host, pid, life, original] = match;
    // Left by a process of this host that is gone, or by an earlier life of this process's id.
    const left = host === HOST && (Number(pid) === process.pid ? life !== LIFE : !isAlive(Number(pid)));
    const at = path.join(folder.dir, name);
    const stat = lstatOrNull(at);
    if (!stat?.isFile()) return;
    if (!left && now - stat.ctimeMs < timing.staleClaimMs) return;
    const back = path.join(folder.dir, original!);
    if (lstatOrNull(back)) return;
    try {
      fs.renameSync(at, back);
    } catch {
      // Another server gave it back first.
    }
  }

  /** Reads a folder's entries: files still, ready, or too large are queued. */
  function list(folder: Folder, now: number): void {
    let names: string[];
    try {
      names = fs.readdirSync(folder.dir);
    } catch {
      return;
    }
    folder.listedAt = now;
    const present = new Set<string>();
    for (const name of names) {
      if (name.startsWith(CLAIM)) {
        giveBackClaim(folder, name, now);
        continue;
      }
      if (name.startsWith('.') || UNFINISHED.test(name)) continue;
      const stat = lstatOrNull(path.join(folder.dir, name));
      // Subfolders (done/, failed/), links, pipes and devices are never opened nor moved.
      if (!stat?.isFile()) continue;
      present.add(name);
      const seen = folder.pending.get(name);
      if (seen?.queued) continue;
      if (!seen || seen.size !== stat.size || seen.mtimeMs !== stat.mtimeMs || seen.ino !== stat.ino) {
        const fresh = { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino, since: now, queued: false };
        folder.pending.set(name, fresh);
        // A file past the bound is not waited for: it may grow forever.
        if (stat.size > ctx.config.importMaxBytes) enqueue(folder, name, fresh, true);
        else lookAt(folder, now + timing.stableMs + 1);
        continue;
      }
      if (now - seen.since >= timing.stableMs) enqueue(folder, name, seen, false);
      // Looked at again the moment it may be still, not at the next scan.
      else lookAt(folder, seen.since + timing.stableMs + 1);
    }
    for (const name of folder.pending.keys()) if (!present.has(name)) folder.pending.delete(name);
  }

  function enqueue(folder: Folder, name: string, seen: Seen, tooLarge: boolean): void {
    seen.queued = true;
    queue.push({ folder, name, seen, tooLarge });
  }

  /** Reads the folders' status, or only `only`'s (those a hint or a waiting file named). */
  async function scan(only?: Folder[]): Promise<void> {
    const now = Date.now();
    if (only) {
      for (const folder of only) {
        if (stopped) return;
        if (folderByKey.get(folder.key) !== folder) continue;
        const stat = lstatOrNull(folder.dir);
        if (!stat?.isDirectory()) continue;
        folder.stamp = `${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
        list(folder, now);
      }
      return;
    }
    if (keysMoved || now - keysReadAt >= timing.keysMs) {
      keysMoved = false;
      keysReadAt = now;
      await readKeys();
    }
    let count = 0;
    for (const folder of folderByKey.values()) {
      if (stopped) return;
      // The folder's own status: entries added, removed or renamed move it.
      const stat = lstatOrNull(folder.dir);
      if (!stat?.isDirectory()) continue;
      watchFolder(folder, stat.ino);
      const stamp = `${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
      if (stamp !== folder.stamp || folder.pending.size > 0 || now - folder.listedAt >= timing.listMs) {
        folder.stamp = stamp;
        list(folder, now);
      }
      // Thousands of folders are read in slices: requests run between them.
      if (++count % 250 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Activity files ready in one folder are imported together (one import, one transaction), as
   * an upload of several files is: an import's fixed cost is paid once per batch. Archives,
   * exports and anything else go alone, so that each row is told to the file it came from.
   */
  function batchOf(first: Work): Work[] {
    if (first.tooLarge || !ACTIVITY.test(first.name) || solo.has(first.name)) return [first];
    const batch = [first];
    const bases = new Set([baseOf(first.name)]);
    for (let i = 0; i < queue.length && batch.length < BATCH;) {
      const next = queue[i]!;
      const base = baseOf(next.name);
      if (
        next.folder === first.folder &&
        !next.tooLarge &&
        ACTIVITY.test(next.name) &&
        !solo.has(next.name) &&
        !bases.has(base)
      ) {
        batch.push(next);
        bases.add(base);
        queue.splice(i, 1);
      } else i++;
    }
    return batch;
  }

  /**
   * Imports the queue's batches, two at a time: a runner's imports parse one after another on
   * one parse thread (pass-one-threads.ts), so the second's claim, copy and parse go on while the
   * first is stored and filed, and the thread is never idle between batches.
   */
  async function drain(): Promise<void> {
    const running = new Set<Promise<void>>();
    for (;;) {
      while (running.size < AT_ONCE && !stopped) {
        const work = queue.shift();
        if (!work) break;
        const batch = batchOf(work);
        const taking: Promise<void> = take(batch)
          .catch((error: unknown) => {
            log.warn({ err: error }, 'inbox: a file could not be imported; it is tried again');
            for (const one of batch) one.folder.pending.delete(one.name);
          })
          .finally(() => running.delete(taking));
        running.add(taking);
      }
      if (running.size === 0) return;
      await Promise.race(running);
    }
  }

  /** Claims, reads, imports and files ready files of one folder. */
  async function take(works: Work[]): Promise<void> {
    const { folder } = works[0]!;
    const done = (name: string) => folder.pending.delete(name);
    const owner = await folders.findOwnerOfKey(ctx.db, folder.key);
    if (!owner || !isRealFolder(folder.dir)) return works.forEach((w) => done(w.name));
    const claimed: Claimed[] = [];
    for (const work of works) {
      const from = path.join(folder.dir, work.name);
      const claim = path.join(folder.dir, claimNameOf(work.name));
      try {
        fs.renameSync(from, claim);
        claimed.push({ ...work, from, claim });
      } catch {
        // Another server claimed it first, or it is gone.
        done(work.name);
      }
    }
    const giveBack = (one: Claimed) => {
      if (!lstatOrNull(one.from)) fs.renameSync(one.claim, one.from);
      done(one.name);
    };
    const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), WORK_PREFIX));
    try {
      const read: (Claimed & { path: string })[] = [];
      for (const one of claimed) {
        if (one.tooLarge) {
          await file(folder, owner.userId, one.name, one.claim, {
            rows: [failedRow(one.name, TOO_LARGE(ctx.config.importMaxBytes))],
            done: false,
          });
          done(one.name);
          continue;
        }
        const copy = path.join(work, `file-${read.length}`);
        const outcome = await copyClaimed(one, copy);
        if (outcome === 'not regular') {
          // Left where it is (a link is never moved but back to its name); said once.
          giveBack(one);
          await folders.addRows(ctx.db, owner.userId, [failedRow(one.name, NOT_REGULAR)]);
        } else if (outcome === 'changed' || (read.length > 0 && outcome === 'archive')) {
          // Changed: read again once still; an archive among activity files: on its own next time.
          if (outcome === 'archive') solo.add(one.name);
          giveBack(one);
        } else read.push({ ...one, path: copy });
      }
      if (read.length === 0) return;
      let rows: ImportRow[] = [];
      try {
        const summary = await importRuns(
          ctx,
          { id: owner.userId, timezone: owner.timezone, units: owner.units },
          read.map((one) => ({ name: one.name, path: one.path })),
          { dryRun: false, workDir: work },
        );
        for await (const row of summary.rows()) rows.push(row);
      } catch (error) {
        if (error instanceof AppError && error.status < 500 && read.length === 1) {
          const one = read[0]!;
          await file(folder, owner.userId, one.name, one.claim, {
            rows: [failedRow(one.name, error.message)],
            done: false,
          });
          return void done(one.name);
        }
        if (!(error instanceof AppError && error.status < 500)) {
          log.warn({ err: error }, 'inbox: the import failed; the files are read again');
        }
        // A batch refused as a whole: each file is read on its own next time.
        for (const one of read) {
          if (read.length > 1) solo.add(one.name);
          giveBack(one);
        }
        return;
      }
      const at = ctx.config.now().toISOString();
      const byFile = new Map<string, folders.StoredInboxRow[]>(read.map((one) => [one.name, []]));
      const fileOf = (source: string) => {
        if (read.length === 1) return read[0]!.name;
        const base = source.replace(/#\d+$/, '');
        return read.find((one) => one.name === base || baseOf(one.name) === base)?.name ?? read[0]!.name;
      };
      for (const row of rows) {
        const name = fileOf(row.source);
        byFile.get(name)!.push({
          file: name,
          source: row.source.slice(0, 2000),
          status:
            row.status === 'created' || row.status === 'duplicate' || row.status === 'track_added'
              ? row.status
              : 'skipped',
          reason: row.reason ?? null,
          entryId: row.entry && 'id' in row.entry && typeof row.entry.id === 'number' ? row.entry.id : null,
          at,
        });
      }
      rows = [];
      for (const one of read) {
        const stored = byFile.get(one.name)!;
        if (stored.length === 0) stored.push({ ...failedRow(one.name, UNREADABLE), status: 'skipped' });
        await file(folder, owner.userId, one.name, one.claim, {
          rows: stored,
          done: stored.some((row) => row.status !== 'skipped'),
        });
        solo.delete(one.name);
        done(one.name);
      }
    } finally {
      await fs.promises.rm(work, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  const failedRow = (name: string, reason: string): folders.StoredInboxRow => ({
    file: name,
    source: name,
    status: 'failed',
    reason,
    entryId: null,
    at: ctx.config.now().toISOString(),
  });

  /**
   * The claimed file opened without following a link, checked after opening (a regular file, the
   * one seen still), and copied from that descriptor to `to`.
   */
  async function copyClaimed(one: Claimed, to: string): Promise<'read' | 'archive' | 'changed' | 'not regular'> {
    let handle: fs.promises.FileHandle;
    try {
      // O_NONBLOCK: a pipe swapped in is never waited on; O_NOFOLLOW: a link is never followed.
      handle = await fs.promises.open(
        one.claim,
        fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
      );
    } catch (error) {
      return errno(error) === 'ELOOP' ? 'not regular' : 'changed';
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return 'not regular';
      const { seen } = one;
      if (stat.ino !== seen.ino || stat.size !== seen.size || stat.mtimeMs !== seen.mtimeMs) return 'changed';
      const head = Buffer.alloc(4);
      await handle.read(head, 0, 4, 0);
      await copyFrom(handle, stat.size, to);
      const after = await handle.stat();
      if (after.size !== stat.size || after.mtimeMs !== stat.mtimeMs) return 'changed';
      // An archive named as an activity file: its rows would name its members, not it.
      return head[0] === 0x50 && head[1] === 0x4b ? 'archive' : 'read';
    } finally {
      await handle.close();
    }
  }

  /** Moves the claimed file to done/ or failed/ with its report, and keeps its rows. */
  async function file(folder: Folder, userId: number, name: string, claim: string, outcome: Outcome): Promise<void> {
    const dest = path.join(folder.dir, outcome.done ? DONE : FAILED);
    if (!lstatOrNull(dest)) {
      try {
        fs.mkdirSync(dest);
      } catch {
        // Made by another server meanwhile, or not possible: checked below.
      }
    }
    const report = outcome.rows.map((row) =>
      [field(row.source), row.status, field(row.entryId), field(row.reason)].join('\t'),
    );
    if (isRealFolder(dest)) {
      const placed = place(claim, dest, name);
      if (placed) {
        try {
          fs.writeFileSync(path.join(dest, `${placed}.txt`), `${report.join('\n')}\n`, { flag: 'wx', mode: 0o660 });
        } catch (error) {
          log.warn({ err: error }, 'inbox: the report could not be written');
        }
      }
    } else {
      // done/ or failed/ is no real folder: the file is set aside in its own folder, never read again.
      setAside(folder, name, claim);
    }
    // The rows newest first: a file's first row is its newest (the folder lists them in the file's order).
    await folders.addRows(ctx.db, userId, outcome.rows.slice(0, folders.KEPT_ROWS).reverse());
  }

  function setAside(folder: Folder, name: string, claim: string): void {
    for (let n = 1; n < 10_000; n++) {
      const target = path.join(folder.dir, `${SET_ASIDE}${numberedName(name, n)}`);
      if (lstatOrNull(target)) continue;
      fs.renameSync(claim, target);
      return;
    }
  }

  /** The claimed file under its name in `dest`, numbered when taken; the name it got. */
  function place(claim: string, dest: string, name: string): string | null {
    for (let n = 1; n < 10_000; n++) {
      const candidate = numberedName(name, n);
      const target = path.join(dest, candidate);
      if (lstatOrNull(`${target}.txt`)) continue;
      try {
        // A link never replaces a file that is there (rename would).
        fs.linkSync(claim, target);
        fs.unlinkSync(claim);
        return candidate;
      } catch (error) {
        if (errno(error) === 'EEXIST') continue;
        // A file system without hard links: a rename, where nothing is.
        if (lstatOrNull(target)) continue;
        fs.renameSync(claim, target);
        return candidate;
      }
    }
    return null;
  }

  async function turn(only?: Folder[]): Promise<void> {
    if (stopped) return;
    try {
      await scan(only);
    } catch (error) {
      log.warn({ err: error }, 'inbox: a scan failed; it runs again');
    }
    if (!working && queue.length > 0) {
      working = drain().finally(() => {
        working = null;
      });
    }
  }

  /** One turn at a time; one asked for meanwhile runs after it. */
  async function runTurn(only?: Folder[]): Promise<void> {
    while (scanning) await scanning;
    if (stopped) return;
    scanning = turn(only).finally(() => {
      scanning = null;
    });
    await scanning;
  }

  const timer = setInterval(() => {
    if (!scanning) void runTurn();
  }, timing.scanMs);
  timer.unref();

  return {
    async scanNow() {
      await scanning;
      await turn();
      await working;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (dueTimer) clearTimeout(dueTimer);
      for (const folder of folderByKey.values()) unwatch(folder);
      await scanning;
      await working;
    },
  };
}

/** Copies `size` bytes from an open file to `to`, a piece at a time. */
async function copyFrom(from: fs.promises.FileHandle, size: number, to: string): Promise<void> {
  const out = await fs.promises.open(to, 'wx', 0o600);
  try {
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await from.read(buffer, 0, Math.min(buffer.length, size - at), at);
      if (bytesRead === 0) break;
      await out.write(buffer, 0, bytesRead);
      at += bytesRead;
    }
  } finally {
    await out.close();
  }
}
