/**
 * The matching thread (started and kept by matching-thread.ts): groups a runner's runs into routes
 * and finds segment efforts (compute.ts) for the jobs it is handed, one at a time, so that the
 * main thread keeps answering requests. It yields the CPU to the main thread (nice 10).
 */
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { effortsOfRuns, extendStoredGrouping, groupStoredRuns } from './compute.js';
import type { MatchingAnswer, MatchingJob } from './matching-thread.js';

try {
  os.setPriority(0, Math.max(os.getPriority(0), 10));
} catch {
  // Not allowed here: the thread runs at the process's priority.
}
const port = parentPort!;
port.on('message', (job: MatchingJob) => {
  let answer: MatchingAnswer;
  try {
    answer =
      job.kind === 'group'
        ? { id: job.id, groups: groupStoredRuns(job.runs) }
        : job.kind === 'extend'
          ? { id: job.id, groups: extendStoredGrouping(job.from, job.runs) }
          : { id: job.id, efforts: effortsOfRuns(job.segments, job.runs) };
  } catch (error) {
    answer = { id: job.id, failed: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
