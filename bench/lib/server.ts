/**
 * Starts the production build (`node dist/server/main.js`) as an operator would, through
 * scripts/support/server-process.ts, and watches its process: memory and CPU time.
 */
import fs from 'node:fs';
import { BUILT_SERVER, procStatusKb, startServer as startProcess } from '../../scripts/support/server-process.js';

export interface RunningServer {
  url: string;
  pid: number;
  /** Resident memory now and at its peak, in MB. */
  memory(): { rssMb: number; peakRssMb: number };
  /** CPU time the process has used so far, in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const server = await startProcess({
    entry: BUILT_SERVER,
    env: { ...process.env, ...env },
    // The request log goes where an operator's would; here nobody reads it.
    stdout: 'ignore',
    graceMs: 15_000,
    outputLimit: 4000,
  });
  const pid = server.pid;
  return {
    url: server.baseUrl,
    pid,
    memory: () => ({ rssMb: procStatusKb(pid, 'VmRSS') / 1024, peakRssMb: procStatusKb(pid, 'VmHWM') / 1024 }),
    cpuMs() {
      // utime and stime, fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 per second).
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    async stop() {
      await server.stop();
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
