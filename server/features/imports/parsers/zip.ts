/**
 * A zip archive read with yauzl (decision 022), at random places of the uploaded file: its
 * central directory gives the members and their declared sizes, which are bounded before
 * anything is expanded; yauzl holds each member to the size it declares while expanding it.
 * What yauzl leaves to its callers is checked here: the number of entries, the total declared
 * size, and that no two members share bytes (overlapping members are a known bomb: eight
 * directory entries naming one member expand it eight times).
 */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { MiB, tooLarge } from './inflate.js';
import { Unreadable, type ByteSource } from './types.js';

export const MAX_ZIP_ENTRIES = 20_000;
export const MAX_ZIP_TOTAL = 1024 * MiB;

/**
 * What the archives of one upload have used of the bounds so far: a zip inside the upload's zip
 * (CONTRACT.md §20, "Nested zips") counts its members with the outer archive's, once.
 */
export interface ZipBounds {
  entries: number;
  bytes: number;
}

export const freshBounds = (): ZipBounds => ({ entries: 0, bytes: 0 });

export interface ZipMember {
  name: string;
  declaredSize: number;
  entry: yauzl.Entry;
}

export interface ZipArchive {
  /** Files, in the directory's order (folders left out). */
  members: ZipMember[];
  /** A member's content as it is expanded, at most `bound` bytes and exactly what it declares. */
  chunks(member: ZipMember, bound: number): AsyncGenerator<Uint8Array>;
  /** A member's content whole (an activity file), with the same bounds. */
  read(member: ZipMember, bound: number): Promise<Uint8Array>;
}

export const isZip = (bytes: Uint8Array) =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);

/**
 * The archive is never closed through yauzl, which would close the file's descriptor: that is
 * its opener's (the upload's), closed once the file is read.
 */
const OPTIONS = { autoClose: false, lazyEntries: true, decodeStrings: true, validateEntrySizes: true };

const damaged = () => new Unreadable('The zip archive is damaged or truncated.');
const forged = () => new Unreadable('The archive entry is larger than its archive declares (damaged or forged).');
const notDeclared = () => new Unreadable('The archive entry is not the size its archive declares (damaged or forged).');
const overlapping = () =>
  new Unreadable('The archive entries overlap one another (a zip bomb?): the archive was not expanded.');

/** A file on disk is read where it lies (its descriptor); bytes in memory as they are. */
function openSource(source: ByteSource): Promise<yauzl.ZipFile> {
  if (source.fd !== undefined) return yauzl.fromFdPromise(source.fd, OPTIONS);
  return yauzl.fromBufferPromise(Buffer.from(source.read(0, source.size)), OPTIONS);
}

/**
 * An archive's members, checked, or Unreadable with the reason. `bounds` holds what the archives
 * this one is read with (the upload's, and a zip nested in it) have counted so far, and gains this
 * one's entries and expanded bytes.
 */
export async function openZip(source: ByteSource, bounds: ZipBounds = freshBounds()): Promise<ZipArchive> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openSource(source);
  } catch {
    throw damaged();
  }
  if (bounds.entries + zip.entryCount > MAX_ZIP_ENTRIES) {
    throw new Unreadable(`The archive has more than ${MAX_ZIP_ENTRIES.toLocaleString('en')} entries.`);
  }
  const entries: yauzl.Entry[] = [];
  let total = bounds.bytes;
  try {
    for await (const entry of zip.eachEntry()) {
      entries.push(entry);
      if (entry.fileName.endsWith('/')) continue;
      total += entry.uncompressedSize;
      if (total > MAX_ZIP_TOTAL) {
        throw new Unreadable(`The archive expands to more than ${MAX_ZIP_TOTAL / MiB / 1024} GiB.`);
      }
    }
  } catch (error) {
    if (error instanceof Unreadable) throw error;
    throw damaged();
  }
  await refuseOverlaps(zip, entries);
  bounds.entries += zip.entryCount;
  bounds.bytes = total;
  const members = entries
    .filter((entry) => !entry.fileName.endsWith('/'))
    .map((entry) => ({ name: entry.fileName, declaredSize: entry.uncompressedSize, entry }));
  return archive(zip, members);
}

/** Every entry's bytes, from its local header to the end of its data, must be its own. */
async function refuseOverlaps(zip: yauzl.ZipFile, entries: yauzl.Entry[]): Promise<void> {
  const spans: [number, number][] = [];
  for (const entry of entries) {
    let dataStart: number;
    try {
      dataStart = (await zip.readLocalFileHeaderPromise(entry, { minimal: true })).fileDataStart;
    } catch {
      throw damaged();
    }
    spans.push([entry.relativeOffsetOfLocalHeader, dataStart + entry.compressedSize]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) if (spans[i]![0] < spans[i - 1]![1]) throw overlapping();
}

function archive(zip: yauzl.ZipFile, members: ZipMember[]): ZipArchive {
  async function* chunks(member: ZipMember, bound: number): AsyncGenerator<Uint8Array> {
    if (member.declaredSize > bound) throw tooLarge(bound);
    const { entry } = member;
    if (!entry.canDecodeFileData()) {
      throw new Unreadable(
        entry.isEncrypted()
          ? 'The archive entry is encrypted.'
          : `The archive entry uses a compression method this server does not read (${entry.compressionMethod}).`,
      );
    }
    let stream: Readable;
    try {
      stream = await zip.openReadStreamPromise(entry);
    } catch {
      throw new Unreadable('The archive entry is damaged (no local header).');
    }
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) yield chunk;
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      if (message.startsWith('too many bytes')) throw forged();
      if (message.startsWith('not enough bytes')) throw notDeclared();
      throw new Unreadable('The compressed data is damaged.');
    } finally {
      stream.destroy();
    }
  }
  return {
    members,
    chunks,
    async read(member, bound) {
      const content = Buffer.allocUnsafe(Math.min(member.declaredSize, bound));
      let at = 0;
      for await (const chunk of chunks(member, bound)) {
        content.set(chunk, at);
        at += chunk.length;
      }
      return content.subarray(0, at);
    },
  };
}
