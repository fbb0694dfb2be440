/**
 * Runs the real server as a child process, from source (`node --import tsx server/main.ts`,
 * no build needed), on 127.0.0.1 and a free port: for the soak, the crash test and the
 * start-up tests, which need a process they can measure, signal and kill.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SOAK_ADMIN = { email: 'admin@example.com', password: 'soak-admin-password-1' };

export interface ServerProcess {
  baseUrl: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** Everything the server wrote to stdout and stderr so far (the last 200 KB). */
  output(): string;
  /** Resident set size of the server process, in bytes. */
  rssBytes(): number;
  /** RSS after a full garbage collection (started with `gcOnSignal`), in bytes. */
  settledRss(): Promise<number>;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (a clean shutdown), SIGKILL after `graceMs`; resolves with the exit. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartOptions {
  databaseUrl: string;
  env?: Record<string, string>;
  /** Wait this long for /api/health to answer 200. */
  timeoutMs?: number;
  /** Run as another user (tests of file permissions when running as root). */
  uid?: number;
  gid?: number;
  /** Preload scripts/soak/gc-on-signal.ts, so that `settledRss()` can collect garbage first. */
  gcOnSignal?: boolean;
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

function serverEnv(databaseUrl: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    ADMIN_EMAIL: SOAK_ADMIN.email,
    ADMIN_PASSWORD: SOAK_ADMIN.password,
    WEB_ROOT: '',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

function spawnServer(databaseUrl: string, port: number, options: StartOptions): ChildProcess {
  const spawnOptions: SpawnOptions = {
    cwd: REPO_ROOT,
    env: serverEnv(databaseUrl, port, options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  };
  if (options.uid !== undefined) spawnOptions.uid = options.uid;
  if (options.gid !== undefined) spawnOptions.gid = options.gid;
  const preload = options.gcOnSignal
    ? ['--expose-gc', '--import', 'tsx', '--import', './scripts/soak/gc-on-signal.ts']
    : ['--import', 'tsx'];
  return spawn(process.execPath, [...preload, path.join('server', 'main.ts')], spawnOptions);
}

/** Resident set size of a process (Linux /proc, else `ps`). */
export function processRss(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // Not Linux, or the process is gone.
  }
  return 0;
}

export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const port = Number(options.env?.PORT) || (await freePort());
  const child = spawnServer(options.databaseUrl, port, options);
  let log = '';
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-200_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const baseUrl = `http://127.0.0.1:${port}`;

  const stop = async (graceMs = 10_000) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    }
    return exited;
  };

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${log}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop(1000);
      throw new Error(`The server did not become healthy in time:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    baseUrl,
    port,
    pid: child.pid!,
    child,
    output: () => log,
    rssBytes: () => processRss(child.pid!),
    settledRss: async () => {
      child.kill('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return processRss(child.pid!);
    },
    exited,
    stop,
  };
}

/** Starts the server and waits for it to exit by itself (start-up failures); kills it after `timeoutMs`. */
export async function runServerUntilExit(
  options: StartOptions & { timeoutMs: number },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; timedOut: boolean }> {
  const port = await freePort();
  const child = spawnServer(options.databaseUrl, port, options);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs);
  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (c, s) => resolve({ code: c, signal: s })),
  );
  clearTimeout(timer);
  return { code, signal, stdout, stderr, timedOut };
}
