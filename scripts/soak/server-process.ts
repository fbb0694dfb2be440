/**
 * The real server from source (`node --import tsx server/main.ts`, no build needed) with the
 * soak's environment, started through scripts/support/server-process.ts: for the soak, the
 * crash test and the start-up tests, which need a process they can measure, signal and kill.
 */
import {
  freePort,
  procStatusKb,
  spawnServer,
  startServer as startProcess,
  type Exit,
  type LaunchOptions,
  type ServerProcess as Process,
} from '../support/server-process.js';

export const SOAK_ADMIN = { email: 'admin@example.com', password: 'soak-admin-password-1' };

export interface ServerProcess extends Process {
  /** Resident set size of the server process, in bytes. */
  rssBytes(): number;
  /** RSS after a full garbage collection (started with `gcOnSignal`), in bytes. */
  settledRss(): Promise<number>;
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

function fromSource(options: StartOptions): LaunchOptions {
  const launch: LaunchOptions = {
    entry: 'server/main.ts',
    nodeArgs: options.gcOnSignal
      ? ['--expose-gc', '--import', 'tsx', '--import', './scripts/soak/gc-on-signal.ts']
      : ['--import', 'tsx'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'production',
      DATABASE_URL: options.databaseUrl,
      ADMIN_EMAIL: SOAK_ADMIN.email,
      ADMIN_PASSWORD: SOAK_ADMIN.password,
      WEB_ROOT: '',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
  };
  if (options.uid !== undefined) launch.uid = options.uid;
  if (options.gid !== undefined) launch.gid = options.gid;
  return launch;
}

export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const server = await startProcess({
    ...fromSource(options),
    port: Number(options.env?.PORT) || undefined,
    timeoutMs: options.timeoutMs,
  });
  const rssBytes = () => procStatusKb(server.pid, 'VmRSS') * 1024;
  return {
    ...server,
    rssBytes,
    settledRss: async () => {
      server.child.kill('SIGUSR2');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return rssBytes();
    },
  };
}

/** Starts the server and waits for it to exit by itself (start-up failures); kills it after `timeoutMs`. */
export async function runServerUntilExit(
  options: StartOptions & { timeoutMs: number },
): Promise<Exit & { stdout: string; stderr: string; timedOut: boolean }> {
  const child = spawnServer(fromSource(options), await freePort());
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, options.timeoutMs);
  const { code, signal } = await new Promise<Exit>((resolve) =>
    child.once('exit', (c, s) => resolve({ code: c, signal: s })),
  );
  clearTimeout(timer);
  return { code, signal, stdout, stderr, timedOut };
}
