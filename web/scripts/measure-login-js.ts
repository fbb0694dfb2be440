/// <reference types="node" />
/**
 * Measures the JavaScript a fresh visit to /login downloads: starts the built
 * server (`node dist/server/main.js`) on a free port with a new SQLite file,
 * opens /login in headless Chromium, records every script response and sums
 * their gzip -9 sizes. Run after `npm run build`:
 *
 *   npx tsx web/scripts/measure-login-js.ts [--budget=100] [--path=/login]
 *
 * Sizes are shown in KiB (1024 bytes) and kB (1000 bytes); the budget is in
 * KiB. Exits with code 1 when the total is over the budget.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const option = (name: string, fallback: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

async function waitForHealth(baseUrl: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('The server exited before it became healthy.');
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((wait) => setTimeout(wait, 150));
  }
  throw new Error('The server did not become healthy within 30 s.');
}

async function main(): Promise<void> {
  const path = option('path', '/login');
  const budgetKb = Number(option('budget', '100'));
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'running-times-measure-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [resolve('dist/server/main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'measure.db')}`,
      ADMIN_PASSWORD: 'admin-password-1',
      DEMO_MODE: '',
    },
    stdio: 'ignore',
  });
  const browser = await (async () => {
    await waitForHealth(baseUrl, () => server.exitCode !== null);
    return chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
    });
  })();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const pending: Promise<{ url: string; raw: number; gzip: number }>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      pending.push(
        response.body().then((body) => ({
          url: new URL(response.url()).pathname,
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
        })),
      );
    });
    await page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Login' }).waitFor({ state: 'visible' });
    const files = (await Promise.all(pending)).sort((a, b) => b.gzip - a.gzip);
    const kib = (bytes: number) => (bytes / 1024).toFixed(2).padStart(9);
    const kb = (bytes: number) => (bytes / 1000).toFixed(2).padStart(9);
    console.log(`Scripts loaded by a fresh visit to ${path} (gzip -9):`);
    console.log(`${'raw KiB'.padStart(9)} ${'gzip KiB'.padStart(9)} ${'gzip kB'.padStart(9)}  file`);
    for (const file of files) console.log(`${kib(file.raw)} ${kib(file.gzip)} ${kb(file.gzip)}  ${file.url}`);
    const total = files.reduce((sum, file) => sum + file.gzip, 0);
    const raw = files.reduce((sum, file) => sum + file.raw, 0);
    console.log(`${kib(raw)} ${kib(total)} ${kb(total)}  total of ${files.length} files (${total} bytes gzipped)`);
    const verdict = total <= budgetKb * 1024 ? 'within' : 'over';
    console.log(`${verdict} the budget of ${budgetKb} KiB gzipped`);
    if (verdict === 'over') process.exitCode = 1;
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((done) => (server.exitCode !== null ? done(null) : server.once('exit', done)));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
