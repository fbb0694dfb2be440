/**
 * A zip archive's members, read from its central directory and expanded one at a time with a
 * bound: an archive of too many entries or of more than the total bound is refused before
 * anything is expanded, and a member whose data expands past what it declares (or past the
 * per-file bound) is stopped there.
 */
import { inflateBounded, MiB, tooLarge } from './inflate.js';
import { Unreadable } from './types.js';

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

/** The members of an archive (directories left out), or Unreadable with the reason. */
export function zipMembers(bytes: Uint8Array): ZipMember[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new Unreadable('The zip archive is damaged or truncated (no central directory).');
  const count = view.getUint16(eocd + 10, true);
  const dirOffset = view.getUint32(eocd + 16, true);
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
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) {
      throw new Unreadable('The zip archive is damaged (its directory is cut short).');
    }
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const declaredSize = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localOffset = view.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
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

/** One member's content: at most its declared size and at most `bound` bytes. */
export function expandMember(bytes: Uint8Array, member: ZipMember, bound: number): Uint8Array {
  if (member.declaredSize > bound) throw tooLarge(bound);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = member.localOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) {
    throw new Unreadable('The archive entry is damaged (no local header).');
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + member.compressedSize;
  if (end > bytes.length) throw new Unreadable('The archive entry is truncated.');
  const data = bytes.subarray(start, end);
  const forged = () => new Unreadable('The archive entry is larger than its archive declares (damaged or forged).');
  let content: Uint8Array;
  if (member.method === 0) content = data;
  else if (member.method === 8) content = inflateBounded(data, member.declaredSize, forged);
  else
    throw new Unreadable(`The archive entry uses a compression method this server does not read (${member.method}).`);
  if (content.length !== member.declaredSize) {
    throw new Unreadable('The archive entry is not the size its archive declares (damaged or forged).');
  }
  return content;
}
