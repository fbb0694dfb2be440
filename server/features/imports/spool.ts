/**
 * The rows of an import, written to a file on disk as they are parsed and read back a piece at
 * a time: once to store them (in batches), once to write the answer. Memory holds one batch of
 * rows, never an import's rows together. One JSON array a line (JSON never holds a raw line break).
 * A spool written on a worker thread (pass-one.worker.ts) is read here by opening its file again
 * with what the writer said of it (`written`, `lines`, `blobBytes`).
 *
 * Beside its lines a spool keeps bytes too big for a line (a run's track and original file,
 * prepared where it is parsed): in a second file, `<path>.bin`, each found again by where it
 * lies (`blob` answers it, `blobAt` reads it back).
 */
import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/**
 * Text written and read at once. Below V8's largest ordinary object (128 KiB): a larger string
 * goes straight to the old generation and lives until a full collection, and an import reads
 * hundreds of MiB of spool, so its garbage would pile up there (the process's memory grew by
 * 50-130 MiB with 256 KiB here).
 */
const WRITE_AT = 48 * 1024;
const READ_AT = 48 * 1024;
/** A line looked up on its own (lineAt) is read this much at a time. */
const LINE_STEP = 4096;

export class Spool {
  private readonly fd: number;
  private readonly blobFd: number;
  private pending = '';
  /** Bytes on disk. */
  written = 0;
  /** Lines written (and not cut off). */
  lines = 0;
  /** Bytes of blobs on disk. */
  blobBytes = 0;

  /** A new, empty spool; or, given what its writer said of it, one written elsewhere, to read. */
  constructor(
    readonly path: string,
    existing?: { written: number; lines: number; blobBytes: number },
  ) {
    this.fd = fs.openSync(path, existing ? 'r' : 'w+');
    this.blobFd = fs.openSync(`${path}.bin`, existing ? 'r' : 'w+');
    if (existing) {
      this.written = existing.written;
      this.lines = existing.lines;
      this.blobBytes = existing.blobBytes;
    }
  }

  /** What a reader of this spool needs to know of it (a spool written on a worker thread). */
  get size(): { written: number; lines: number; blobBytes: number } {
    return { written: this.written, lines: this.lines, blobBytes: this.blobBytes };
  }

  /** Writes bytes beside the lines; answers where they lie, for a line to name. */
  blob(bytes: Uint8Array): [number, number] {
    fs.writeSync(this.blobFd, bytes, 0, bytes.length, this.blobBytes);
    const at = this.blobBytes;
    this.blobBytes += bytes.length;
    return [at, bytes.length];
  }

  /** The bytes a blob's place names. */
  blobAt([at, length]: [number, number]): Buffer {
    const bytes = Buffer.allocUnsafe(length);
    fs.readSync(this.blobFd, bytes, 0, length, at);
    return bytes;
  }

  write(line: unknown[]): void {
    this.pending += `${JSON.stringify(line)}\n`;
    this.lines += 1;
    if (this.pending.length >= WRITE_AT) this.flush();
  }

  /** Where the next line (and blob) goes: `cut` comes back here. */
  mark(): { at: number; lines: number; blobs: number } {
    return { at: this.written + Buffer.byteLength(this.pending), lines: this.lines, blobs: this.blobBytes };
  }

  /** Forgets every line (and blob) written since `mark`. */
  cut(mark: { at: number; lines: number; blobs?: number }): void {
    this.flush();
    fs.ftruncateSync(this.fd, mark.at);
    this.written = mark.at;
    this.lines = mark.lines;
    if (mark.blobs !== undefined) {
      fs.ftruncateSync(this.blobFd, mark.blobs);
      this.blobBytes = mark.blobs;
    }
  }

  /** Writes what is pending to the file. */
  flush(): void {
    if (this.pending === '') return;
    const bytes = Buffer.from(this.pending);
    fs.writeSync(this.fd, bytes, 0, bytes.length, this.written);
    this.written += bytes.length;
    this.pending = '';
  }

  /** Every line written, in order, parsed, with where it starts; read from disk a chunk at a time. */
  async *read(): AsyncGenerator<{ row: unknown[]; at: number }> {
    this.flush();
    const decoder = new StringDecoder('utf8');
    const chunk = Buffer.allocUnsafe(READ_AT);
    let rest = '';
    // Where `rest` starts in the file: lines are cut at '\n', which is one byte in UTF-8.
    let restAt = 0;
    for (let at = 0; at < this.written;) {
      const read = await new Promise<number>((resolve, reject) =>
        fs.read(this.fd, chunk, 0, Math.min(chunk.length, this.written - at), at, (error, n) =>
          error ? reject(error) : resolve(n),
        ),
      );
      if (read === 0) break;
      at += read;
      const text = rest + decoder.write(chunk.subarray(0, read));
      let from = 0;
      for (let end = text.indexOf('\n', from); end >= 0; end = text.indexOf('\n', from)) {
        const line = text.slice(from, end);
        yield { row: JSON.parse(line) as unknown[], at: restAt };
        restAt += Buffer.byteLength(line) + 1;
        from = end + 1;
      }
      rest = text.slice(from);
    }
  }

  /** The line that starts at `at` (from read), parsed. */
  lineAt(at: number): unknown[] {
    this.flush();
    const pieces: Buffer[] = [];
    for (let from = at; from < this.written; from += LINE_STEP) {
      const piece = Buffer.allocUnsafe(Math.min(LINE_STEP, this.written - from));
      fs.readSync(this.fd, piece, 0, piece.length, from);
      const end = piece.indexOf(0x0a);
      pieces.push(end >= 0 ? piece.subarray(0, end) : piece);
      if (end >= 0) break;
    }
    return JSON.parse(Buffer.concat(pieces).toString('utf8')) as unknown[];
  }

  /** Closes the file (again: nothing). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    fs.closeSync(this.fd);
    fs.closeSync(this.blobFd);
  }

  private closed = false;
}

/**
 * Lets other requests run when the import has held the event loop for `everyMs` milliseconds,
 * looking at the clock every `checkEvery` calls (a power of two).
 */
export function yielder(everyMs = 4, checkEvery = 32): () => Promise<void> | undefined {
  let since = performance.now();
  let calls = 0;
  const mask = checkEvery - 1;
  return () => {
    if ((++calls & mask) !== 0) return undefined;
    const now = performance.now();
    if (now - since < everyMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}
