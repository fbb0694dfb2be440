/**
 * A watch's FIT files of one-hour runs recorded every second (position, distance, elevation, heart
 * rate, cadence, 1 km laps: server/test/imports/track-fixtures.ts `realisticFit`), for the import
 * bench (CONTRACT.md §17). Garmin's encoder takes about 0.2 s a file, so they are written on a few
 * worker threads (watch-files.worker.ts) and kept in bench/.tmp, under a name that changes with the
 * code that makes them: a later run reads them back.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { siblingModule, startThread } from '../../server/threads.js';
import { REPO_ROOT } from '../../scripts/support/server-process.js';

export interface WatchFilesJob {
  dir: string;
  seconds: number;
  /** Which files this thread writes (their numbers). */
  numbers: number[];
}

/** The start of file `n`: one run a day from 2015-03-01, at 07:00 UTC. */
export const watchFileStart = (n: number) => new Date(Date.UTC(2015, 2, 1 + n, 7));

export const watchFileName = (n: number) => `run-${String(n).padStart(4, '0')}.fit`;

/** What the files are made with: the fixtures' source and the encoder's version. */
function makerHash(seconds: number): string {
  const hash = createHash('sha256').update(String(seconds));
  for (const file of [
    'server/test/imports/track-fixtures.ts',
    'server/test/imports/fixtures.ts',
    'bench/lib/watch-files.worker.ts',
  ]) {
    hash.update(fs.readFileSync(path.join(REPO_ROOT, file)));
  }
  const sdk = createRequire(import.meta.url).resolve('@garmin/fitsdk/package.json');
  hash.update(fs.readFileSync(sdk));
  return hash.digest('hex').slice(0, 12);
}

/**
 * `count` FIT files of `seconds` each, as {name: bytes}: read from bench/.tmp when an earlier run
 * made them with the same code, the missing ones written now on the machine's cores.
 */
export async function watchFiles(
  count: number,
  seconds: number,
): Promise<{ files: Record<string, Uint8Array>; builtSeconds: number; built: number }> {
  const dir = path.join(REPO_ROOT, 'bench', '.tmp', `watch-${seconds}s-${makerHash(seconds)}`);
  fs.mkdirSync(dir, { recursive: true });
  const missing = Array.from({ length: count }, (_, n) => n).filter(
    (n) => !fs.existsSync(path.join(dir, watchFileName(n))),
  );
  const started = performance.now();
  if (missing.length > 0) {
    const threads = Math.max(1, Math.min(missing.length, os.availableParallelism()));
    const file = siblingModule(import.meta.url, 'watch-files.worker');
    await Promise.all(
      Array.from({ length: threads }, async (_, t) => {
        const job: WatchFilesJob = { dir, seconds, numbers: missing.filter((_, i) => i % threads === t) };
        const worker = startThread(file, { workerData: job });
        const [code] = (await once(worker, 'exit')) as [number];
        if (code !== 0) throw new Error(`Writing the watch files stopped (exit code ${code}).`);
      }),
    );
  }
  const files: Record<string, Uint8Array> = {};
  for (let n = 0; n < count; n++) files[watchFileName(n)] = fs.readFileSync(path.join(dir, watchFileName(n)));
  return { files, builtSeconds: (performance.now() - started) / 1000, built: missing.length };
}
