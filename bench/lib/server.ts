/** Starts the production build (`node dist/server/main.js`) as an operator would, and watches its process. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../scripts/soak/server-process.js';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'server', 'main.js');

export interface RunningServer {
  url: string;
  pid: number;
  /** Resident memory now and at its peak, in MB. */
  memory(): { rssMb: number; peakRssMb: number };
  /** CPU time the process has used so far, in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

function procStatus(pid: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const [key, ...rest] = line.split(':');
    if (key) out[key] = rest.join(':').trim();
  }
  return out;
}

const kb = (text: string | undefined) => Number.parseInt(text ?? '0', 10) / 1024;

export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first.`);
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    // The request log goes where an operator's would; here nobody reads it.
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`The server exited during start-up: ${stderr.trim()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not become healthy within 60 s: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const pid = child.pid!;
  return {
    url,
    pid,
    memory() {
      const status = procStatus(pid);
      return { rssMb: kb(status.VmRSS), peakRssMb: kb(status.VmHWM) };
    },
    cpuMs() {
      // utime and stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second).
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

export async function login(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`Login of ${email} failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
