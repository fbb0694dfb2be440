/** Writes the watch files a thread of watch-files.ts is given, each whole or not at all (renamed into place). */
import fs from 'node:fs';
import path from 'node:path';
import { workerData } from 'node:worker_threads';
import { realisticFit } from '../../server/test/imports/track-fixtures.js';
import { watchFileName, watchFileStart, type WatchFilesJob } from './watch-files.js';

const job = workerData as WatchFilesJob;
for (const n of job.numbers) {
  const bytes = realisticFit(job.seconds, { start: watchFileStart(n), seed: n + 1, fractionalCadence: true });
  const file = path.join(job.dir, watchFileName(n));
  fs.writeFileSync(`${file}.part`, bytes);
  fs.renameSync(`${file}.part`, file);
}
