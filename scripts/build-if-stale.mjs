/* global process, console */
/**
 * `npm start` runs this first: it builds the server and the web app only when their sources
 * changed since the last build. A fingerprint of every input (the sources of core/, server/
 * and web/, the build configuration and the lockfile) is kept in dist/.build-fingerprint;
 * when it matches, the existing build is served at once.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(root, 'dist', '.build-fingerprint');
const SOURCES = ['core', 'server', 'web'];
const FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'tsconfig.build.json',
  'tsconfig.node.json',
  'tsconfig.web.json',
  'vite.config.ts',
  'scripts/compress-web.mjs',
];
const OUTPUTS = ['dist/server/main.js', 'dist/web/index.html'];

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

function fingerprint() {
  const hash = createHash('sha256');
  const all = [...SOURCES.flatMap((dir) => [...files(path.join(root, dir))]), ...FILES.map((f) => path.join(root, f))];
  for (const file of all.sort()) {
    if (!fs.existsSync(file)) continue;
    hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

const current = fingerprint();
const built = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').trim() : null;
const complete = OUTPUTS.every((file) => fs.existsSync(path.join(root, file)));
if (built === current && complete && !process.argv.includes('--force')) {
  console.log('Running Times: the build is up to date (sources unchanged); starting.');
  process.exit(0);
}
console.log('Running Times: building the server and the web app (sources changed since the last build)...');
fs.rmSync(STAMP, { force: true });
const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
if (result.status !== 0) process.exit(result.status ?? 1);
fs.writeFileSync(STAMP, `${current}\n`);
