/* global process, setInterval */
/**
 * Preloaded into a server the bench starts (`node --expose-gc --import <this file>`): it keeps
 * the peak of V8's heap (the main thread's: what JavaScript holds, uncollected garbage included)
 * sampled every 20 ms, and on SIGUSR2 writes {seq, heapUsed, heapPeak, external} to the file
 * named by BENCH_PROBE_FILE, collecting garbage first when asked (BENCH_PROBE_GC, set per
 * signal through the file's request line) and starting a new peak. Nothing else in the server
 * changes: the bench reads memory from outside, as an operator would.
 */
import fs from 'node:fs';
import v8 from 'node:v8';

const file = process.env.BENCH_PROBE_FILE;
if (file) {
  let peak = 0;
  let seq = 0;
  const sample = () => {
    peak = Math.max(peak, v8.getHeapStatistics().used_heap_size);
  };
  setInterval(sample, 20).unref();
  process.on('SIGUSR2', () => {
    let collect = false;
    try {
      collect = fs.readFileSync(`${file}.ask`, 'utf8').trim() === 'gc';
    } catch {
      // No request: no collection.
    }
    if (collect && typeof globalThis.gc === 'function') globalThis.gc();
    sample();
    const stats = v8.getHeapStatistics();
    const usage = process.memoryUsage();
    seq += 1;
    fs.writeFileSync(
      file,
      JSON.stringify({ seq, heapUsed: stats.used_heap_size, heapPeak: peak, external: usage.external }),
    );
    peak = stats.used_heap_size;
  });
}
