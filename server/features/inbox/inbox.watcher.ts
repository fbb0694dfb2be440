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
}

interface Work {
  folder: Folder;
  name: string;
  seen: Seen;
  tooLarge: boolean;
}

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

type Outcome = { rows: folders.StoredInboxRow[]; done: boolean };

export function startInboxReader(ctx: AppContext, log: FastifyBaseLogger): InboxReader {
  const root = ctx.config.inboxDir!;
  const timing = ctx.config.inboxTiming;
  const folderByKey = new Map<string, Folder>();
  const queue: Work[] = [];
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
    for (const key of folderByKey.keys()) if (!keys.has(key)) folderByKey.delete(key);
    for (const key of keys) {
      if (!folderByKey.has(key)) {
        folderByKey.set(key, { key, dir: path.join(root, key), stamp: '', listedAt: -Infinity, pending: new Map() });
      }
    }
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
        continue;
      }
      if (now - seen.since >= timing.stableMs) enqueue(folder, name, seen, false);
    }
    for (const name of folder.pending.keys()) if (!present.has(name)) folder.pending.delete(name);
  }

  function enqueue(folder: Folder, name: string, seen: Seen, tooLarge: boolean): void {
    seen.queued = true;
    queue.push({ folder, name, seen, tooLarge });
  }

  async function scan(): Promise<void> {
    const now = Date.now();
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
      const stamp = `${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
      if (stamp !== folder.stamp || folder.pending.size > 0 || now - folder.listedAt >= timing.listMs) {
        folder.stamp = stamp;
        list(folder, now);
      }
      // Thousands of folders are read in slices: requests run between them.
      if (++count % 250 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async function drain(): Promise<void> {
    for (let work = queue.shift(); work && !stopped; work = queue.shift()) {
      try {
        await take(work);
      } catch (error) {
        log.warn({ err: error }, 'inbox: a file could not be imported; it is tried again');
        work.folder.pending.delete(work.name);
      }
    }
  }

  /** Claims, reads, imports and files one ready file. */
  async function take({ folder, name, seen, tooLarge }: Work): Promise<void> {
    const done = () => folder.pending.delete(name);
    const owner = await folders.findOwnerOfKey(ctx.db, folder.key);
    if (!owner || !isRealFolder(folder.dir)) return void done();
    const from = path.join(folder.dir, name);
    const claim = path.join(folder.dir, claimNameOf(name));
    try {
      fs.renameSync(from, claim);
    } catch {
      // Another server claimed it first, or it is gone.
      return void done();
    }
    const giveBack = () => {
      if (!lstatOrNull(from)) fs.renameSync(claim, from);
      done();
    };
    if (tooLarge) {
      await file(folder, owner.userId, name, claim, {
        rows: [failedRow(name, TOO_LARGE(ctx.config.importMaxBytes))],
        done: false,
      });
      return void done();
    }
    const outcome = await readAndImport(folder, name, claim, seen, owner);
    if (outcome === 'changed') return giveBack();
    if (outcome === 'not regular') {
      // Left where it is (a link is never moved but back to its name); said once.
      giveBack();
      await folders.addRows(ctx.db, owner.userId, [failedRow(name, NOT_REGULAR)]);
      return;
    }
    if (outcome === 'retry') return giveBack();
    await file(folder, owner.userId, name, claim, outcome);
    done();
  }

  const failedRow = (name: string, reason: string): folders.StoredInboxRow => ({
    file: name,
    source: name,
    status: 'failed',
    reason,
    entryId: null,
    at: ctx.config.now().toISOString(),
  });

  async function readAndImport(
    folder: Folder,
    name: string,
    claim: string,
    seen: Seen,
    owner: folders.FolderOwner,
  ): Promise<Outcome | 'changed' | 'not regular' | 'retry'> {
    let handle: fs.promises.FileHandle;
    try {
      // O_NONBLOCK: a pipe swapped in is never waited on; O_NOFOLLOW: a link is never followed.
      handle = await fs.promises.open(claim, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch (error) {
      return errno(error) === 'ELOOP' ? 'not regular' : 'changed';
    }
    const work = await fs.promises.mkdtemp(path.join(os.tmpdir(), WORK_PREFIX));
    try {
      try {
        const stat = await handle.stat();
        if (!stat.isFile()) return 'not regular';
        if (stat.ino !== seen.ino || stat.size !== seen.size || stat.mtimeMs !== seen.mtimeMs) return 'changed';
        await copyFrom(handle, stat.size, path.join(work, 'file'));
        const after = await handle.stat();
        if (after.size !== stat.size || after.mtimeMs !== stat.mtimeMs) return 'changed';
      } finally {
        await handle.close();
      }
      let rows: ImportRow[] = [];
      try {
        const summary = await importRuns(
          ctx,
          { id: owner.userId, timezone: owner.timezone, units: owner.units },
          [{ name, path: path.join(work, 'file') }],
          { dryRun: false, workDir: work },
        );
        for await (const row of summary.rows()) rows.push(row);
      } catch (error) {
        if (error instanceof AppError && error.status < 500) {
          return { rows: [failedRow(name, error.message)], done: false };
        }
        log.warn({ err: error }, 'inbox: the import failed; the file is read again');
        return 'retry';
      }
      const at = ctx.config.now().toISOString();
      const stored = rows.map((row): folders.StoredInboxRow => ({
        file: name,
        source: row.source.slice(0, 2000),
        status:
          row.status === 'created' || row.status === 'duplicate' || row.status === 'track_added'
            ? row.status
            : 'skipped',
        reason: row.reason ?? null,
        entryId: row.entry && 'id' in row.entry && typeof row.entry.id === 'number' ? row.entry.id : null,
        at,
      }));
      if (stored.length === 0) stored.push({ ...failedRow(name, UNREADABLE), status: 'skipped' });
      rows = [];
      return { rows: stored, done: stored.some((row) => row.status !== 'skipped') };
    } finally {
      await fs.promises.rm(work, { recursive: true, force: true }).catch(() => undefined);
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

  async function turn(): Promise<void> {
    if (stopped) return;
    try {
      await scan();
    } catch (error) {
      log.warn({ err: error }, 'inbox: a scan failed; it runs again');
    }
    if (!working && queue.length > 0) {
      working = drain().finally(() => {
        working = null;
      });
    }
  }

  const timer = setInterval(() => {
    if (!scanning) {
      scanning = turn().finally(() => {
        scanning = null;
      });
    }
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
