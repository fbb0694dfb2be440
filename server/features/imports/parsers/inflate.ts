/**
 * Bounded inflation (gzip and zip's deflate): the compressed bytes go in by small slices and
 * the output is counted as it comes, so a bomb is stopped at the bound, never expanded in full.
 */
import { Gunzip, Inflate } from 'fflate';
import { Unreadable } from './types.js';

/** Compressed bytes fed per step: deflate expands at most ~1,032 times, so one step adds at most ~16 MiB. */
const SLICE = 16 * 1024;

export const MiB = 1024 * 1024;

export const tooLarge = (bound: number) =>
  new Unreadable(`The file expands beyond ${Math.round(bound / MiB)} MiB and was not expanded (a compression bomb?).`);

function bounded(
  make: (ondata: (chunk: Uint8Array, final: boolean) => void) => Gunzip | Inflate,
  data: Uint8Array,
  bound: number,
  what: string,
  overflow: () => Unreadable = () => tooLarge(bound),
): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let done = false;
  const stream = make((chunk, final) => {
    size += chunk.length;
    if (size > bound) throw overflow();
    chunks.push(chunk);
    if (final) done = true;
  });
  try {
    for (let at = 0; at < data.length && !done; at += SLICE) {
      const end = Math.min(at + SLICE, data.length);
      stream.push(data.subarray(at, end), end === data.length);
    }
  } catch (error) {
    if (error instanceof Unreadable) throw error;
    throw new Unreadable(`The ${what} data is damaged.`);
  }
  if (!done) throw new Unreadable(`The ${what} data is incomplete (the file is truncated).`);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

export const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/** A gzip file's content, at most `bound` bytes. */
export function gunzipBounded(data: Uint8Array, bound: number): Uint8Array {
  return bounded((ondata) => new Gunzip(ondata), data, bound, 'gzip');
}

/** Raw deflate data (a zip entry), at most `bound` bytes. */
export function inflateBounded(data: Uint8Array, bound: number, overflow?: () => Unreadable): Uint8Array {
  return bounded((ondata) => new Inflate(ondata), data, bound, 'compressed', overflow);
}
