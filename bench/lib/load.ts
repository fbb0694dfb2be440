/** One autocannon run, with exact latency percentiles (autocannon's own histogram is in whole ms). */
import autocannon, { type Request } from 'autocannon';

export interface LoadOptions {
  connections: number;
  /** Seconds. */
  duration: number;
}

export interface LoadResult {
  requests: number;
  /** Requests per second over the run. */
  rps: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  /** Responses outside 2xx, and connection errors or timeouts. */
  failures: number;
  statuses: Record<string, number>;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function runLoad(url: string, requests: Request[], options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    let latencies = new Float64Array(1 << 16);
    let count = 0;
    const statuses: Record<string, number> = {};
    const started = process.hrtime.bigint();
    const instance = autocannon(
      { url, connections: options.connections, duration: options.duration, timeout: 30, requests },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const sorted = latencies.subarray(0, count).sort();
        resolve({
          requests: count,
          rps: count / (result.duration > 0 ? result.duration : seconds),
          p50: percentile(sorted, 50),
          p99: percentile(sorted, 99),
          failures: result.non2xx + result.errors + result.timeouts,
          statuses,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (count === latencies.length) {
        const bigger = new Float64Array(latencies.length * 2);
        bigger.set(latencies);
        latencies = bigger;
      }
      latencies[count++] = ms;
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
}
