/**
 * The production build (`node dist/server/main.js`) in a process of its own, as an operator
 * runs it, watched from outside: its resident memory from /proc (the peak by VmHWM, reset before
 * each measurement through /proc/<pid>/clear_refs, with 20 ms samples as a fallback) and, through
 * a preloaded probe (heap-probe.mjs), the V8 heap of its main thread. What the bench's client
 * holds (the upload's file stream, the answer) is never in these figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { BUILT_SERVER, REPO_ROOT, procStatusKb, startServer, type Exit } from '../../scripts/support/server-process.js';

const MiB = 1024 * 1024;
const mib = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;

export interface Memory {
  /** Peak resident memory minus resident memory at the start, MiB. */
  rssGrowthMiB: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  /** Peak V8 heap of the main thread (garbage included) minus its size after a collection at the start, MiB. */
  heapGrowthMiB: number;
  /** The heap after a collection at the end: what the work left behind, MiB. */
  heapAfterMiB: number;
  heapBeforeMiB: number;
}

export interface ProbedServer {
  url: string;
  pid: number;
  /** Runs `work` and measures the server's memory meanwhile. */
  measure<T>(work: () => Promise<T>): Promise<{ result: T; memory: Memory }>;
  /**
   * Watches the resident memory alone (no heap probe: it works on a server that dies meanwhile):
   * `peak()` is the highest since the call, `stop()` ends the sampling.
   */
  watchRss(): { beforeMiB: number; peakMiB(): number; stop(): void };
  /** Resident memory now, MiB; NaN once the process is gone. */
  rssMiB(): number;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Resolves when the process has exited, with how. */
  exited: Promise<Exit>;
  /** The end of what the server wrote to stderr. */
  output(): string;
  stop(): Promise<void>;
}

interface Probe {
  seq: number;
  heapUsed: number;
  heapPeak: number;
  external: number;
}

/** Builds the server (tsc) unless told not to; under the shared build lock when `flock` is there. */
export function buildServer(): void {
  console.log('Building the server (npm run build:server)...');
  execFileSync('flock', ['/tmp/rt-build.lock', 'npm', 'run', '--silent', 'build:server'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
}

export async function startProbedServer(env: Record<string, string>): Promise<ProbedServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-probe-'));
  const probeFile = path.join(dir, 'heap.json');
  const server = await startServer({
    entry: BUILT_SERVER,
    nodeArgs: ['--expose-gc', '--import', path.join(import.meta.dirname, 'heap-probe.mjs')],
    env: { ...process.env, ...env, BENCH_PROBE_FILE: probeFile },
    stdout: 'ignore',
    graceMs: 15_000,
    // Enough for V8's fatal error above its stack trace, when a server dies.
    outputLimit: 20_000,
  });
  const pid = server.pid;
  let seq = 0;
  const probe = async (gc: boolean): Promise<Probe> => {
    fs.writeFileSync(`${probeFile}.ask`, gc ? 'gc' : '');
    seq += 1;
    process.kill(pid, 'SIGUSR2');
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const read = JSON.parse(fs.readFileSync(probeFile, 'utf8')) as Probe;
        if (read.seq >= seq) return read;
      } catch {
        // Not written yet, or half written.
      }
      if (Date.now() > deadline) throw new Error('The server did not answer the heap probe.');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const resetPeak = () => {
    try {
      fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
      return true;
    } catch {
      return false;
    }
  };
  let exit: Exit | null = null;
  void server.exited.then((how) => {
    exit = how;
  });
  const alive = () => exit === null && server.child.exitCode === null && server.child.signalCode === null;
  return {
    url: server.baseUrl,
    pid,
    exited: server.exited,
    alive,
    output: () => server.output(),
    rssMiB: () => (alive() ? mib(procStatusKb(pid, 'VmRSS') * 1024) : Number.NaN),
    watchRss() {
      const before = procStatusKb(pid, 'VmRSS') * 1024;
      const exactPeak = resetPeak();
      let sampled = before;
      const sample = () => {
        if (alive()) sampled = Math.max(sampled, procStatusKb(pid, 'VmRSS') * 1024);
      };
      const timer = setInterval(sample, 20);
      let stopped = false;
      return {
        beforeMiB: mib(before),
        peakMiB() {
          if (!stopped) sample();
          // VmHWM is gone with the process: then the samples are all there is.
          const hwm = exactPeak && alive() ? procStatusKb(pid, 'VmHWM') * 1024 : 0;
          sampled = Math.max(sampled, hwm);
          return mib(sampled);
        },
        stop() {
          stopped = true;
          clearInterval(timer);
        },
      };
    },
    async measure(work) {
      const before = await probe(true);
      const rssBefore = procStatusKb(pid, 'VmRSS') * 1024;
      const exactPeak = resetPeak();
      let sampled = rssBefore;
      const timer = setInterval(() => {
        sampled = Math.max(sampled, procStatusKb(pid, 'VmRSS') * 1024);
      }, 20);
      try {
        const result = await work();
        const during = await probe(false);
        const peak = Math.max(sampled, exactPeak ? procStatusKb(pid, 'VmHWM') * 1024 : 0);
        const after = await probe(true);
        return {
          result,
          memory: {
            rssGrowthMiB: mib(peak - rssBefore),
            rssBeforeMiB: mib(rssBefore),
            rssPeakMiB: mib(peak),
            heapGrowthMiB: mib(during.heapPeak - before.heapUsed),
            heapAfterMiB: mib(after.heapUsed),
            heapBeforeMiB: mib(before.heapUsed),
          },
        };
      } finally {
        clearInterval(timer);
      }
    },
    async stop() {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
