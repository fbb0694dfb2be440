/**
 * A zip archive's members, read from its central directory and expanded one at a time with a
 * bound: an archive of too many entries or of more than the total bound is refused before
 * anything is expanded, and a member whose data expands past what it declares (or past the
 * per-file bound) is stopped there.
 */
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { inflateBounded, MiB, tooLarge } from './inflate.js';
import { Unreadable, type ByteSource } from './types.js';

export const MAX_ZIP_ENTRIES = 20_000;
export const MAX_ZIP_TOTAL = 1024 * MiB;

export interface ZipMember {
  name: string;
  method: number;
  compressedSize: number;
  declaredSize: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export const isZip = (bytes: Uint8Array) =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);

/** Reads little-endian numbers anywhere in a source through a window of it: an archive is never read whole. */
class Reader {
  private window: Uint8Array = new Uint8Array(0);
  private view = new DataView(this.window.buffer);
  private from = 0;

  constructor(private readonly source: ByteSource) {}

  get size(): number {
    return this.source.size;
  }

  /** `length` bytes at `at` (fewer past the end), from the window, moved there when it does not hold them. */
  bytes(at: number, length: number): Uint8Array {
    if (at < this.from || at + length > this.from + this.window.length) {
      this.window = this.source.read(at, Math.max(length, WINDOW));
      this.view = new DataView(this.window.buffer, this.window.byteOffset, this.window.byteLength);
      this.from = at;
    }
    return this.window.subarray(at - this.from, at - this.from + length);
  }

  u16(at: number): number {
    this.bytes(at, 2);
    return this.view.getUint16(at - this.from, true);
  }

  u32(at: number): number {
    this.bytes(at, 4);
    return this.view.getUint32(at - this.from, true);
  }
}

const WINDOW = 256 * 1024;

/** The members of an archive (directories left out), or Unreadable with the reason. */
export function zipMembers(source: ByteSource): ZipMember[] {
  const file = new Reader(source);
  const size = file.size;
  // The end of central directory record is in the last 22 + 65,535 bytes (its comment).
  const tailFrom = Math.max(0, size - 22 - 0xffff);
  const tail = file.bytes(tailFrom, size - tailFrom);
  const tailView = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let eocd = -1;
  for (let at = size - 22; at >= tailFrom; at--) {
    if (tailView.getUint32(at - tailFrom, true) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new Unreadable('The zip archive is damaged or truncated (no central directory).');
  const count = file.u16(eocd + 10);
  const dirOffset = file.u32(eocd + 16);
  if (count === 0xffff || dirOffset === 0xffffffff) {
    throw new Unreadable('Zip64 archives are not supported: split the archive into smaller ones.');
  }
  if (count > MAX_ZIP_ENTRIES) {
    throw new Unreadable(`The archive has more than ${MAX_ZIP_ENTRIES.toLocaleString('en')} entries.`);
  }
  const decoder = new TextDecoder();
  const members: ZipMember[] = [];
  let total = 0;
  let at = dirOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > size || file.u32(at) !== CENTRAL) {
      throw new Unreadable('The zip archive is damaged (its directory is cut short).');
    }
    const method = file.u16(at + 10);
    const compressedSize = file.u32(at + 20);
    const declaredSize = file.u32(at + 24);
    const nameLength = file.u16(at + 28);
    const extraLength = file.u16(at + 30);
    const commentLength = file.u16(at + 32);
    const localOffset = file.u32(at + 42);
    const name = decoder.decode(file.bytes(at + 46, nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    total += declaredSize;
    if (total > MAX_ZIP_TOTAL) {
      throw new Unreadable(`The archive expands to more than ${MAX_ZIP_TOTAL / MiB / 1024} GiB.`);
    }
    members.push({ name, method, compressedSize, declaredSize, localOffset });
  }
  return members;
}

/** Where a member's data lies in its archive, or Unreadable. */
function memberData(source: ByteSource, member: ZipMember): { start: number; end: number } {
  const header = source.read(member.localOffset, 30);
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (header.length < 30 || view.getUint32(0, true) !== LOCAL) {
    throw new Unreadable('The archive entry is damaged (no local header).');
  }
  const start = member.localOffset + 30 + view.getUint16(26, true) + view.getUint16(28, true);
  const end = start + member.compressedSize;
  if (end > source.size) throw new Unreadable('The archive entry is truncated.');
  if (member.method !== 0 && member.method !== 8) {
    throw new Unreadable(`The archive entry uses a compression method this server does not read (${member.method}).`);
  }
  return { start, end };
}

const forged = () => new Unreadable('The archive entry is larger than its archive declares (damaged or forged).');
const notDeclared = () => new Unreadable('The archive entry is not the size its archive declares (damaged or forged).');

/**
 * One member's content as it is expanded, a chunk at a time (an export inside an archive,
 * possibly large): the same bounds and checks as expandMember, never the member whole.
 */
export async function* memberChunks(source: ByteSource, member: ZipMember, bound: number): AsyncGenerator<Uint8Array> {
  if (member.declaredSize > bound) throw tooLarge(bound);
  const { start, end } = memberData(source, member);
  const STEP = 64 * 1024;
  function* compressed() {
    for (let at = start; at < end; at += STEP) yield source.read(at, Math.min(STEP, end - at));
  }
  let total = 0;
  if (member.method === 0) {
    for (const chunk of compressed()) {
      total += chunk.length;
      yield chunk;
    }
  } else {
    const input = Readable.from(compressed(), { objectMode: false });
    const inflate = zlib.createInflateRaw();
    input.on('error', (error) => inflate.destroy(error));
    input.pipe(inflate);
    try {
      for await (const chunk of inflate as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > member.declaredSize) throw forged();
        yield chunk;
      }
    } catch (error) {
      if (error instanceof Unreadable) throw error;
      throw new Unreadable('The compressed data is damaged.');
    } finally {
      input.destroy();
      inflate.destroy();
    }
  }
  if (total !== member.declaredSize) throw notDeclared();
}

/** One member's content: at most its declared size and at most `bound` bytes. */
export function expandMember(source: ByteSource, member: ZipMember, bound: number): Uint8Array {
  if (member.declaredSize > bound) throw tooLarge(bound);
  const { start } = memberData(source, member);
  const data = source.read(start, member.compressedSize);
  const forged = () => new Unreadable('The archive entry is larger than its archive declares (damaged or forged).');
  const content = member.method === 0 ? data : inflateBounded(data, member.declaredSize, forged);
  if (content.length !== member.declaredSize) {
    throw new Unreadable('The archive entry is not the size its archive declares (damaged or forged).');
  }
  return content;
}
