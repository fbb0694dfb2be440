/**
 * One autocannon run in a process of its own (forked by bench/import.ts): the load's client
 * then shares neither the event loop nor the memory of the in-process server it measures.
 * Reads {url, requests, connections, duration} from the parent, answers the LoadResult.
 */
import { fork } from 'node:child_process';
import type { Request } from 'autocannon';
import { runLoad, type LoadOptions, type LoadResult } from './load.js';

interface Job extends LoadOptions {
  url: string;
  requests: Request[];
}

/** Runs the load in a child process; resolves with its result. */
export function loadInChild(job: Job): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(import.meta.filename, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (result) => resolve(result as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`The load process exited with ${code}`));
    });
    child.send(job);
  });
}

if (process.send && process.argv[1] === import.meta.filename) {
  process.once('message', (job: Job) => {
    void runLoad(job.url, job.requests, { connections: job.connections, duration: job.duration }).then(
      (result) => process.send!(result, () => process.exit(0)),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
