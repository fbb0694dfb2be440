/**
 * Pass 1 of an import (imports.service.ts): every uploaded file parsed as a stream, each run
 * validated as `POST /entry` would, and each row written to the spool file (spool.ts). It needs
 * no database: it runs on a worker thread of its own for a large upload (pass-one.worker.ts),
 * so that parsing shares no event loop with other requests, or here for a small one (a
 * thread costs more than a few rows). Same input, same spool, same answer either way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { GoalBodySchema, type GoalBody } from '../../../core/goals.js';
import type { ImportMapping } from '../../../core/imports.js';
import { EntryBodySchema, type User } from '../../../core/schemas.js';
import { ShoeBodySchema, type ShoeBody } from '../../../core/shoes.js';
import { dateInZone, formatDuration } from '../../../core/time.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { toValues, type EntryValues } from '../entries/entries.service.js';
import { parseUpload } from './parsers/files.js';
import { Unreadable, type ByteSource, type Candidate } from './parsers/types.js';
import { plainEntryBody, type EntryInput } from './plain-entry.js';
import type { Spool } from './spool.js';

/** An uploaded file, on disk for as long as the import runs. */
export interface UploadedFile {
  name: string;
  path: string;
}

/** What pass 1 is given: plain data, the same on a worker thread as here. */
export interface PassOneInput {
  files: UploadedFile[];
  user: Pick<User, 'timezone' | 'units'>;
  mapping?: ImportMapping | undefined;
  /** The runner's today (a later date is refused, as by `POST /entry`). */
  today: string;
}

/** What pass 1 found: counts of the rows it wrote, and what pass 2 needs beside them. */
export interface PassOneResult {
  created: number;
  skipped: number;
  /** Files (archive members) whose rows were read: rows of different groups may be duplicates of each other. */
  groups: number;
  /** A run that names no shoe takes the runner's default shoe. */
  defaultShoeWanted: boolean;
  shoes: ShoeBody[];
  goals: GoalBody[];
}

/**
 * A line of the spool: a skipped row `[0, source, reason, columns]`, or a run that passed
 * validation `[1, source, group, date, distanceKm, seconds, title, notes, kind, effort, shoe]`
 * (shoe: false when the file says nothing, null for none, else the shoe's name).
 */
export type SkipLine = [0, string, string, string[] | null];
export type RunLine = [
  1,
  string,
  number,
  string,
  number,
  number,
  string | null | undefined,
  string | null | undefined,
  EntryValues['kind'],
  EntryValues['effort'],
  string | null | false,
];

/** Distances half-up to the metre and durations to the second, before validation and the duplicate test. */
export const metresOf = (km: number) => Math.round(km * 1000 + 1e-7);

/** toValues reads its context only for today's date, which an import always gives. */
const NO_CONTEXT = {} as AppContext;

/** A candidate as `POST /entry` would take it, or the first validation message. */
function validate(user: PassOneInput['user'], run: Candidate, today: string): EntryValues | string {
  const metres = Number.isFinite(run.distanceKm) ? metresOf(run.distanceKm) : NaN;
  const seconds = Number.isFinite(run.seconds) ? Math.round(run.seconds) : NaN;
  const body: EntryInput = {
    date: run.date ?? (run.start ? dateInZone(run.start, user.timezone) : undefined),
    distance: Number.isNaN(metres) ? undefined : metres / 1000,
    time: Number.isNaN(seconds) ? undefined : seconds < 0 ? '-' : formatDuration(seconds),
    title: run.title ?? null,
    notes: run.notes ?? null,
    kind: run.kind ?? null,
    effort: run.effort ?? null,
  };
  let valid = plainEntryBody(body);
  if (!valid) {
    const parsed = EntryBodySchema.safeParse(body);
    if (!parsed.success) return parsed.error.issues[0]?.message ?? 'The run is not valid.';
    valid = parsed.data;
  }
  try {
    return toValues(NO_CONTEXT, user, valid, today);
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
}

const validItems = <T>(
  items: Record<string, unknown>[],
  schema: { safeParse(v: unknown): { success: boolean; data?: T } },
) =>
  items.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data as T] : [];
  });

/** Reads an uploaded file where it lies, a piece at a time. */
function openUpload(path: string): ByteSource & { close(): void } {
  const fd = fs.openSync(path, 'r');
  return {
    size: fs.fstatSync(fd).size,
    read(at, length) {
      const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, this.size - at)));
      const read = buffer.length > 0 ? fs.readSync(fd, buffer, 0, buffer.length, at) : 0;
      return buffer.subarray(0, read);
    },
    close: () => fs.closeSync(fd),
  };
}

/**
 * Parses and validates every file into `spool` (a file found damaged part-way is cut from it
 * and skipped whole, with the reason); each file is removed once read. `pause` lets other work
 * run now and then (on the main thread); `onRow` is told of every row written.
 */
export async function spoolRows(
  input: PassOneInput,
  spool: Spool,
  pause: () => Promise<void> | undefined = () => undefined,
  onRow: (rows: number) => void = () => undefined,
): Promise<PassOneResult> {
  const parseOptions = { mapping: input.mapping, accountUnits: input.user.units };
  const result: PassOneResult = { created: 0, skipped: 0, groups: 0, defaultShoeWanted: false, shoes: [], goals: [] };
  for (const file of input.files) {
    const upload = openUpload(file.path);
    try {
      for await (const group of parseUpload(file.name, upload, parseOptions)) {
        const mark = spool.mark();
        const before = { created: result.created, skipped: result.skipped, shoe: result.defaultShoeWanted };
        const groupIndex = result.groups;
        try {
          for await (const row of group.rows) {
            await pause();
            if ('run' in row) {
              const values = validate(input.user, row.run, input.today);
              if (typeof values === 'string') {
                spool.write([0, row.source, values, null] satisfies SkipLine);
                result.skipped += 1;
              } else {
                const shoe = row.run.shoe === undefined ? false : row.run.shoe;
                if (shoe === false) result.defaultShoeWanted = true;
                spool.write([
                  1,
                  row.source,
                  groupIndex,
                  values.date,
                  values.distanceKm,
                  values.seconds,
                  values.title,
                  values.notes,
                  values.kind,
                  values.effort,
                  shoe,
                ] satisfies RunLine);
                result.created += 1;
              }
            } else if ('skip' in row) {
              spool.write([0, row.source, row.skip, row.columns ?? null] satisfies SkipLine);
              result.skipped += 1;
            } else continue;
            onRow(spool.lines);
          }
        } catch (error) {
          if (!(error instanceof Unreadable)) throw error;
          // A file found damaged part-way is skipped whole, with the reason.
          spool.cut(mark);
          result.created = before.created;
          result.skipped = before.skipped + 1;
          result.defaultShoeWanted = before.shoe;
          spool.write([0, error.source ?? group.group, error.message, null] satisfies SkipLine);
          continue;
        }
        result.groups += 1;
        const extras = group.extras?.();
        if (extras) {
          result.shoes.push(...validItems<ShoeBody>(extras.shoes, ShoeBodySchema));
          result.goals.push(...validItems<GoalBody>(extras.goals, GoalBodySchema));
        }
      }
    } finally {
      upload.close();
    }
    // Read to its end: its place on disk is given back before the runs are stored.
    await fs.promises.rm(file.path, { force: true });
  }
  spool.flush();
  return result;
}

// ---- On a worker thread ----

/** What the main thread hands a worker, and what the worker answers. */
export interface PassOneJob {
  input: PassOneInput;
  spoolPath: string;
  /** Tests: the thread exits, as if it crashed, once it has written this many rows (0: never). */
  exitAfterRows: number;
}
export type PassOneAnswer =
  { done: PassOneResult & { spool: { written: number; lines: number } } } | { failed: string; status?: number };

/** The nice value of a pass 1 thread (Linux: the thread's alone): other requests come first. */
export const PASS_ONE_NICE = 10;

/** Pass 1 on worker threads: when, how many at once, and with how much memory. */
export const passOneThreads = {
  /** Uploads of at least this many bytes are parsed on a worker thread of their own. */
  fromBytes: 512 * 1024,
  /** Threads parsing at once; an import beyond them waits for one to finish. */
  most: Math.max(1, Math.min(4, os.availableParallelism() - 1)),
  /** The old-generation heap a thread may use (MiB): past it, the import is refused (413), the server unharmed. */
  heapMiB: 512,
  /** The young generation (MiB): small, since parsed rows live briefly; it counts in the process's memory. */
  youngMiB: 8,
  /** Tests: see PassOneJob. */
  exitAfterRows: 0,
};

/** Threads parsing now, and the most at once so far (the tests read it). */
export const threadUse = { running: 0, peak: 0 };
const waiting: (() => void)[] = [];

/** Waits for a free thread; answers its release. */
async function threadSlot(): Promise<() => void> {
  while (threadUse.running >= passOneThreads.most) await new Promise<void>((resolve) => waiting.push(resolve));
  threadUse.running += 1;
  threadUse.peak = Math.max(threadUse.peak, threadUse.running);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    threadUse.running -= 1;
    waiting.shift()?.();
  };
}

const here = fileURLToPath(import.meta.url);
const WORKER_FILE = path.join(path.dirname(here), `pass-one.worker${path.extname(here)}`);

/** A thread running the worker's file: the built .js as it is, a .ts source (tests, tsx) through tsx. */
function startThread(job: PassOneJob): Worker {
  const resourceLimits = {
    maxOldGenerationSizeMb: passOneThreads.heapMiB,
    maxYoungGenerationSizeMb: passOneThreads.youngMiB,
  };
  const loaded = WORKER_FILE.endsWith('.js') || process.execArgv.some((arg) => arg.includes('tsx'));
  if (loaded) return new Worker(WORKER_FILE, { workerData: job, resourceLimits });
  return new Worker(
    `const { workerData } = require('node:worker_threads');
     import('tsx/esm/api').then(({ register }) => { register(); return import(workerData.entry); });`,
    { eval: true, workerData: { ...job, entry: pathToFileURL(WORKER_FILE).href }, resourceLimits },
  );
}

const STOPPED =
  'The import stopped before its files were read to the end; nothing was stored. Try again, or send fewer files at once.';
const TOO_BIG =
  'Reading these files needs more memory than an import may use; nothing was stored. Send smaller files, or fewer at once.';

/**
 * Pass 1 on a worker thread of its own (waiting for a free one): resolves with what it found
 * once the spool at `spoolPath` is written, or fails with an AppError: the worker's own error,
 * 413 when it ran out of its memory, 500 when it stopped without an answer. It never hangs: a
 * thread that ends, however it ends, settles the promise.
 */
export async function spoolRowsOnThread(
  input: PassOneInput,
  spoolPath: string,
): Promise<PassOneResult & { spool: { written: number; lines: number } }> {
  const release = await threadSlot();
  try {
    const worker = startThread({ input, spoolPath, exitAfterRows: passOneThreads.exitAfterRows });
    return await new Promise((resolve, reject) => {
      let answer: PassOneAnswer | undefined;
      let failure: unknown;
      worker.on('message', (message: PassOneAnswer) => {
        answer = message;
      });
      worker.on('error', (error) => {
        failure = error;
      });
      worker.once('exit', () => {
        if (answer && 'done' in answer) resolve(answer.done);
        else if (answer) reject(new AppError(answer.status ?? 500, answer.failed));
        else if ((failure as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          reject(new AppError(413, TOO_BIG));
        } else reject(new AppError(500, STOPPED));
      });
    });
  } finally {
    release();
  }
}
