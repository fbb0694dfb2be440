/* global process, console */
/**
 * After `vite build`: writes a .br (brotli, best) and a .gz (gzip, best) copy next to every
 * compressible file of dist/web, so that the server sends them as they are (its static
 * files plugin has preCompressed on) instead of compressing on each request or not at all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'web');
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest|xml|ico)$/;
const MIN_BYTES = 512;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

if (!fs.existsSync(root)) {
  console.error(`compress-web: ${root} does not exist; run vite build first.`);
  process.exit(1);
}

let count = 0;
let before = 0;
let afterBr = 0;
for (const file of files(root)) {
  const data = fs.readFileSync(file);
  if (data.length < MIN_BYTES) continue;
  const br = zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  const gz = zlib.gzipSync(data, { level: zlib.constants.Z_BEST_COMPRESSION });
  // A compressed copy that is not smaller is of no use.
  if (br.length < data.length) fs.writeFileSync(`${file}.br`, br);
  if (gz.length < data.length) fs.writeFileSync(`${file}.gz`, gz);
  count += 1;
  before += data.length;
  afterBr += Math.min(br.length, data.length);
}
console.log(
  `compress-web: ${count} files, ${(before / 1024).toFixed(1)} KB -> ${(afterBr / 1024).toFixed(1)} KB with brotli`,
);
