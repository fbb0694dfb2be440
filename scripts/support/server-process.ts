/**
 * The one way the unit tests, e2e, bench and soak run the server as a child process:
 * `node <flags of npm start> <entry>` on 127.0.0.1 and a free port, ready once GET /api/health answers 200
 * (within a bound; the server's output is in the error otherwise), stopped with SIGTERM
 * and, after a grace period, SIGKILL. With the small pieces several callers share: a free
 * port, a runner registered over HTTP, and the process's memory as Linux reports it.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The production build, as an operator starts it (`npm run build` makes it). */
export const BUILT_SERVER = path.join(REPO_ROOT, 'dist', 'server', 'main.js');

/**
 * Node's flags of `npm start` (package.json's start script: the heap's bounds), so that every
 * server the tests, e2e, bench and soak start runs as the one an operator starts.
 */
export const SERVER_NODE_FLAGS: readonly string[] = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start
  .split(/\s+/)
  .filter((word) => word.startsWith('--'));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface LaunchOptions {
  /** The script node runs: absolute, or relative to the repository (the server's working folder). */
  entry: string;
  /** Node's own flags, before the script (preloads). */
  nodeArgs?: string[];
  /** The server's whole environment; HOST (127.0.0.1) and PORT are set on top of it. */
  env: NodeJS.ProcessEnv;
  /** `ignore` drops stdout (a request log nobody reads); by default it is kept in `output()` with stderr. */
  stdout?: 'pipe' | 'ignore';
  /** Run as another user (tests of file permissions when running as root). */
  uid?: number;
  gid?: number;
}

export interface StartOptions extends LaunchOptions {
  /** Default: a free port. */
  port?: number | undefined;
  /** How long /api/health may take to answer 200; default 60 s. */
  timeoutMs?: number | undefined;
  /** How long `stop()` waits after SIGTERM before SIGKILL; default 10 s. */
  graceMs?: number;
  /** How much of the output `output()` keeps (the end), in characters; default 200,000. */
  outputLimit?: number;
}

export interface ServerProcess {
  baseUrl: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** The end of what the server wrote (stderr, and stdout unless ignored). */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<Exit>;
  /** SIGTERM (a clean shutdown), SIGKILL after `graceMs`; resolves with the exit. */
  stop(graceMs?: number): Promise<Exit>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Spawns the server on 127.0.0.1:`port` and returns at once (no health check). */
export function spawnServer(options: LaunchOptions, port: number): ChildProcess {
  const entry = path.resolve(REPO_ROOT, options.entry);
  if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first.`);
  const spawnOptions: SpawnOptions = {
    cwd: REPO_ROOT,
    env: { ...options.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'],
  };
  if (options.uid !== undefined) spawnOptions.uid = options.uid;
  if (options.gid !== undefined) spawnOptions.gid = options.gid;
  return spawn(process.execPath, [...SERVER_NODE_FLAGS, ...(options.nodeArgs ?? []), entry], spawnOptions);
}

/** Starts the server and resolves once GET /api/health answers 200; stops it and throws if that takes too long. */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const child = spawnServer(options, port);
  const limit = options.outputLimit ?? 200_000;
  let log = '';
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-limit);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const baseUrl = `http://127.0.0.1:${port}`;

  const stop = async (graceMs = options.graceMs ?? 10_000) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    }
    return exited;
  };

  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${log}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop(1000);
      throw new Error(`The server did not become healthy within ${timeoutMs / 1000} s:\n${log}`);
    }
    await sleep(100);
  }

  return { baseUrl, port, pid: child.pid!, child, output: () => log, exited, stop };
}

/** A field of /proc/<pid>/status in kB (VmRSS, VmHWM); 0 when unknown (not Linux, or the process is gone). */
export function procStatusKb(pid: number, field: string): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export interface NewRunner {
  name: string;
  email: string;
  password: string;
  timezone?: string;
  /** Sent as X-Forwarded-For: with TRUST_PROXY, each runner registers from its own address. */
  from?: string;
}

/** Registers a runner through the API of a running server; throws with its answer unless 201. */
export async function registerRunner(baseUrl: string, runner: NewRunner): Promise<{ id: number; token: string }> {
  const { from, password, ...fields } = runner;
  const res = await fetch(`${baseUrl}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(from ? { 'x-forwarded-for': from } : {}) },
    body: JSON.stringify({ ...fields, password, password_confirmation: password }),
  });
  if (res.status !== 201) throw new Error(`Registering ${runner.email} answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { user: { id: number }; access_token: string };
  return { id: body.user.id, token: body.access_token };
}
