/**
 * A thread of the seed's tracks (seed-tracks.ts): answers each batch of runs with their packed
 * synthetic tracks, in order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { packedSyntheticTrack, type RunToTrack } from './tracks.js';

const { randomSeed } = workerData as { randomSeed: number };
const port = parentPort!;
port.on('message', (runs: RunToTrack[]) => {
  port.postMessage(runs.map((run) => packedSyntheticTrack(randomSeed, run)));
});
