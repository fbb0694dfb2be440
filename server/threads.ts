/**
 * Worker threads running a module of this codebase. The production build runs the built `.js`
 * as it is; a `.ts` source (tests, `tsx` scripts, `npm run dev`) needs tsx's loader in the
 * thread, which registers it first: on Node 20 a thread does not inherit the loader hooks of a
 * process started by `tsx`, though it inherits its `--import` flags.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The file `name` (without its extension) beside `moduleUrl` (an `import.meta.url`), with that
 * module's own extension: `.js` when built, `.ts` from source.
 */
export function siblingModule(moduleUrl: string, name: string): string {
  const here = fileURLToPath(moduleUrl);
  return path.join(path.dirname(here), `${name}${path.extname(here)}`);
}

/** A thread running `file` (a path from `siblingModule`) with `options` (workerData included). */
export function startThread(file: string, options: WorkerOptions = {}): Worker {
  if (file.endsWith('.js')) return new Worker(file, options);
  return new Worker(
    `const { workerData } = require('node:worker_threads');
     import('tsx/esm/api').then(({ register }) => { register(); return import(workerData.entry); });`,
    { ...options, eval: true, workerData: { ...options.workerData, entry: pathToFileURL(file).href } },
  );
}
