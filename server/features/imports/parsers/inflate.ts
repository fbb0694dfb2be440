/**
 * Bounded gzip inflation with Node's own zlib: `maxOutputLength` stops the inflater as soon as
 * its output would pass the bound, so a bomb is refused at the bound, never expanded in full
 * (and native zlib gets there about ten times faster than JavaScript). Zip members are
 * inflated by yauzl (zip.ts), held to the size they declare.
 */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Unreadable } from './types.js';

export const MiB = 1024 * 1024;

export const tooLarge = (bound: number) =>
  new Unreadable(`The file expands beyond ${Math.round(bound / MiB)} MiB and was not expanded (a compression bomb?).`);

export const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/** A gzip file's content, at most `bound` bytes. */
export function gunzipBounded(data: Uint8Array, bound: number): Uint8Array {
  try {
    // maxOutputLength must be at least 1; an empty result is checked by the caller.
    return zlib.gunzipSync(data, { maxOutputLength: Math.max(1, bound) });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(bound);
    if (code === 'Z_BUF_ERROR') throw new Unreadable('The gzip data is incomplete (the file is truncated).');
    throw new Unreadable('The gzip data is damaged.');
  }
}

/** What a gzip file expands to, counted and let go a chunk at a time: Unreadable past `bound` or when damaged. */
export async function gunzippedSize(chunks: Iterable<Uint8Array>, bound: number): Promise<number> {
  let total = 0;
  for await (const chunk of gunzipStream(chunks, bound)) total += chunk.length;
  return total;
}

/**
 * A gzip file's content as it is inflated, a chunk at a time: never more than a chunk in
 * memory, and Unreadable past `bound` bytes (without inflating further) or on damaged data.
 */
export async function* gunzipStream(chunks: Iterable<Uint8Array>, bound: number): AsyncGenerator<Uint8Array> {
  const input = Readable.from(chunks, { objectMode: false });
  const gunzip = zlib.createGunzip();
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  let total = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > bound) throw tooLarge(bound);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof Unreadable) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'Z_BUF_ERROR') throw new Unreadable('The gzip data is incomplete (the file is truncated).');
    throw new Unreadable('The gzip data is damaged.');
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}
