/**
 * An open-loop prober: another runner who, for as long as a piece of long work lasts, sends on a
 * fixed schedule (every 250 ms by default, whether or not the previous answer came) a write
 * (POST /api/v1/entry, a valid run with a date in the past, never the same twice), a read
 * (GET /api/v1/entry, their first page) and GET /api/health. Each request's latency runs from the
 * time it was scheduled to send to the end of its answer, so a stalled server shows as the whole
 * stall on every request that waited through it, not once as in a closed loop (where a stalled
 * connection sends nothing more and the stall is one sample among thousands).
 *
 * It runs in a child process of its own (startOpenLoop forks this file), not in the bench's driver:
 * while the prober runs the driver is not idle, it reads the work's answer as a stream (an import
 * of 200,000 rows answers ~80 MB of JSON, an export as much), counts its bytes and samples the
 * server's RSS every 20 ms; a prober on that event loop would send late and read answers late,
 * and would charge the driver's own work to the server. The server is a process of its own too.
 *
 * Bounded: at most `maxSeconds` of schedule (then it stops by itself, as if the work had ended),
 * then at most `drainSeconds` (60) waiting for the answers still due; a request unanswered by
 * then is aborted and counts as its wait. The parent kills the child if its result is late.
 */
import { fork } from 'node:child_process';

export interface OpenLoopJob {
  /** The server's origin, http://127.0.0.1:<port>. */
  url: string;
  /** The other runner's bearer token. */
  token: string;
  intervalMs: number;
  /** The longest schedule: the prober stops by itself after this even if not told to. */
  maxSeconds: number;
  /** How long the answers still due when the schedule ends are waited for. */
  drainSeconds: number;
  /** The number of this prober's first run: a runner probed again never posts the same run twice. */
  firstRun: number;
}

export const PROBE_KINDS = ['write', 'read', 'health'] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

export interface ProbeKindResult {
  request: string;
  /** Requests scheduled (and sent). */
  sent: number;
  /** Milliseconds from the scheduled send to the end of the answer; an unanswered request counts as its wait. */
  slowestMs: number;
  p99Ms: number;
  p50Ms: number;
  /** Answers outside 2xx (5xx included), and failed or unanswered requests. */
  not2xx: number;
  /** Answers 500-599. */
  serverErrors: number;
  /** Requests that got no answer: a refused or reset connection. */
  failed: number;
  /** Requests still unanswered when the drain ended (aborted). */
  unanswered: number;
  statuses: Record<string, number>;
}

export interface OpenLoopResult {
  intervalMs: number;
  /** How long the schedule ran. */
  scheduleSeconds: number;
  /** How long the answers still due were waited for once the schedule ended. */
  drainSeconds: number;
  /** `bound`: the work outlasted maxSeconds and the prober stopped by itself. */
  stoppedBy: 'work' | 'bound';
  /** How late, at worst, the prober itself sent a request after its scheduled time (its own loop's lag). */
  sendLagMaxMs: number;
  write: ProbeKindResult;
  read: ProbeKindResult;
  health: ProbeKindResult;
}

export interface OpenLoopProbe {
  /** Ends the schedule; resolves once every answer came or the drain bound passed. */
  stop(): Promise<OpenLoopResult>;
}

type Message = { type: 'started' } | { type: 'result'; result: OpenLoopResult } | { type: 'stop' };

/** Forks the prober and resolves once its schedule has started. */
export function startOpenLoop(job: OpenLoopJob): Promise<OpenLoopProbe> {
  const child = fork(import.meta.filename, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // What the child reported, or why it never will; stop() waits for either.
  const outcome = new Promise<OpenLoopResult>((resolve, reject) => {
    child.on('message', (message: Message) => {
      if (message.type === 'result') resolve(message.result);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      reject(new Error(`The open-loop prober exited (${code ?? signal}) before reporting.`)),
    );
  });
  outcome.catch(() => undefined);
  const started = new Promise<void>((resolve, reject) => {
    child.on('message', (message: Message) => {
      if (message.type === 'started') resolve();
    });
    outcome.catch(reject);
  });
  let startBound: NodeJS.Timeout | undefined;
  const startTimeout = new Promise<never>((_, reject) => {
    startBound = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('The open-loop prober did not start within 30 s.'));
    }, 30_000);
  });
  child.send(job);
  return Promise.race([started, startTimeout])
    .finally(() => clearTimeout(startBound))
    .then(() => ({
      async stop() {
        if (child.connected) child.send({ type: 'stop' } satisfies Message);
        // The child reports within drainSeconds of this; a little more for its exit.
        let bound: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, reject) => {
          bound = setTimeout(
            () => {
              child.kill('SIGKILL');
              reject(new Error('The open-loop prober did not report in time.'));
            },
            (job.drainSeconds + 30) * 1000,
          );
        });
        try {
          return await Promise.race([outcome, late]);
        } finally {
          clearTimeout(bound);
        }
      },
    }));
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const DAY = 86_400_000;
const FIRST_DAY = Date.UTC(2000, 0, 1);

/** Run `n` of the prober's runner: a date from 2000 to 2024, 5-9.9 km in 30-49 min (well under the speed limit). */
export function probeRun(n: number): { date: string; distance: number; time: string; title: string } {
  return {
    date: new Date(FIRST_DAY + (n % 9000) * DAY).toISOString().slice(0, 10),
    distance: 5 + (n % 50) / 10,
    time: `00:${String(30 + (n % 20)).padStart(2, '0')}:00`,
    title: `Probe ${n}`,
  };
}

async function probe(job: OpenLoopJob, stopped: Promise<void>, onStarted: () => void): Promise<OpenLoopResult> {
  const requests: Record<ProbeKind, (n: number) => [string, RequestInit]> = {
    write: (n) => [
      '/api/v1/entry',
      {
        method: 'POST',
        headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(probeRun(job.firstRun + n)),
      },
    ],
    read: () => ['/api/v1/entry', { headers: { authorization: `Bearer ${job.token}` } }],
    health: () => ['/api/health', {}],
  };
  const names: Record<ProbeKind, string> = {
    write: 'POST /api/v1/entry',
    read: 'GET /api/v1/entry',
    health: 'GET /api/health',
  };
  const latencies: Record<ProbeKind, number[]> = { write: [], read: [], health: [] };
  const statuses: Record<ProbeKind, Record<string, number>> = { write: {}, read: {}, health: {} };
  const counts = Object.fromEntries(PROBE_KINDS.map((kind) => [kind, { sent: 0, failed: 0, unanswered: 0 }])) as Record<
    ProbeKind,
    { sent: number; failed: number; unanswered: number }
  >;
  const pending = new Set<Promise<void>>();
  const drainAbort = new AbortController();
  let sendLagMaxMs = 0;

  const send = (kind: ProbeKind, n: number, scheduled: number) => {
    const [path, init] = requests[kind](n);
    counts[kind].sent += 1;
    const done = (async () => {
      let status = 'failed';
      try {
        const res = await fetch(`${job.url}${path}`, { ...init, signal: drainAbort.signal });
        // The answer's end: its whole body read.
        await res.arrayBuffer();
        status = String(res.status);
      } catch {
        if (drainAbort.signal.aborted) {
          status = 'unanswered';
          counts[kind].unanswered += 1;
        } else counts[kind].failed += 1;
      }
      latencies[kind].push(performance.now() - scheduled);
      statuses[kind][status] = (statuses[kind][status] ?? 0) + 1;
    })();
    pending.add(done);
    void done.finally(() => pending.delete(done));
  };

  let stop = false;
  void stopped.then(() => {
    stop = true;
  });
  // One request first, not counted: the client's own first connection and compilation are not the server's.
  await fetch(`${job.url}/api/health`, { signal: AbortSignal.timeout(10_000) }).then(
    (res) => res.arrayBuffer(),
    () => undefined,
  );
  const maxTicks = Math.ceil((job.maxSeconds * 1000) / job.intervalMs);
  const started = performance.now();
  onStarted();
  let tick = 0;
  let wake: (() => void) | null = null;
  void stopped.then(() => wake?.());
  // The schedule: tick k is due at started + k * interval. A tick the loop reaches late is sent
  // at once, its latency still counted from when it was due.
  while (!stop && tick < maxTicks) {
    const due = started + tick * job.intervalMs;
    const wait = due - performance.now();
    if (wait > 0) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, wait);
      });
      wake = null;
      if (stop) break;
    }
    sendLagMaxMs = Math.max(sendLagMaxMs, performance.now() - due);
    for (const kind of PROBE_KINDS) send(kind, tick, due);
    tick += 1;
  }
  const scheduleSeconds = (performance.now() - started) / 1000;
  const stoppedBy: OpenLoopResult['stoppedBy'] = stop ? 'work' : 'bound';

  // The drain: every answer still due, for at most drainSeconds; then the rest are aborted.
  const drainStarted = performance.now();
  const drainBound = setTimeout(() => drainAbort.abort(), job.drainSeconds * 1000);
  while (pending.size > 0) await Promise.all([...pending]);
  clearTimeout(drainBound);
  const drainSeconds = (performance.now() - drainStarted) / 1000;

  const summary = (kind: ProbeKind): ProbeKindResult => {
    const sorted = Float64Array.from(latencies[kind]).sort();
    let not2xx = 0;
    let serverErrors = 0;
    for (const [status, count] of Object.entries(statuses[kind])) {
      const code = Number(status);
      if (!(code >= 200 && code < 300)) not2xx += count;
      if (code >= 500 && code < 600) serverErrors += count;
    }
    return {
      request: names[kind],
      sent: counts[kind].sent,
      slowestMs: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
      p99Ms: percentile(sorted, 99),
      p50Ms: percentile(sorted, 50),
      not2xx,
      serverErrors,
      failed: counts[kind].failed,
      unanswered: counts[kind].unanswered,
      statuses: statuses[kind],
    };
  };
  return {
    intervalMs: job.intervalMs,
    scheduleSeconds,
    drainSeconds,
    stoppedBy,
    sendLagMaxMs,
    write: summary('write'),
    read: summary('read'),
    health: summary('health'),
  };
}

if (process.send && process.argv[1] === import.meta.filename) {
  // The driver gone, nothing is left to report to.
  process.once('disconnect', () => process.exit(1));
  process.once('message', (job: OpenLoopJob) => {
    let stopWork: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => {
      stopWork = resolve;
    });
    process.on('message', (message: Message) => {
      if (message.type === 'stop') stopWork();
    });
    const running = probe(job, stopped, () => process.send!({ type: 'started' } satisfies Message));
    void running.then(
      (result) => process.send!({ type: 'result', result } satisfies Message, () => process.exit(0)),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
