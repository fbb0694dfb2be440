/**
 * A throwaway PostgreSQL cluster that a test can stop and start: the same recipe as
 * scripts/postgres-sandbox.sh (initdb as the postgres user, pg_ctl on a free port of
 * 127.0.0.1, the socket in the cluster's folder), driven from TypeScript.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../scripts/support/server-process.js';

export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  const latest = versions.at(-1);
  return latest ? path.join(root, latest, 'bin') : null;
}

export interface Cluster {
  url: string;
  port: number;
  start(): void;
  /** `fast` disconnects clients and shuts down cleanly; `immediate` is a crash. */
  stop(mode?: 'fast' | 'immediate'): void;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) the server and all its processes: a hung database. */
  freeze(): void;
  thaw(): void;
  destroy(): void;
}

export async function createCluster(bin: string): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'running-times-pg-'));
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const run = (command: string, args: string[]) => {
    const quoted = [path.join(bin, command), ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    execFileSync(asRoot ? 'su' : 'bash', asRoot ? ['postgres', '-s', '/bin/bash', '-c', quoted] : ['-c', quoted], {
      stdio: 'pipe',
      timeout: 60_000,
    });
  };
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off`;
  const cluster: Cluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-o', options, 'start']),
    stop: (mode = 'fast') => run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']),
    freeze: () => signalAll(data, 'SIGSTOP'),
    thaw: () => signalAll(data, 'SIGCONT'),
    destroy: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // Already stopped.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}

/** Sends a signal to the cluster's postmaster and every process it started. */
function signalAll(data: string, signal: NodeJS.Signals): void {
  const postmaster = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map(Number);
  for (const pid of [postmaster, ...children]) process.kill(pid, signal);
}
