/**
 * Hostile files for the import tests: compression bombs, archives that lie about their sizes or
 * share their bytes between members, and XML entities that would expand to gigabytes.
 */
import zlib from 'node:zlib';
import { concat } from './fixtures.js';

/** A gzip file of `mib` MiB of zeros (about 1 KiB per MiB). */
export const gzipBomb = (mib: number): Uint8Array => zlib.gzipSync(Buffer.alloc(mib * 1024 * 1024), { level: 9 });

/** A zip whose one entry is `mib` MiB of zeros, honestly declared (sizes up to 4 GiB - 1). */
export function zipBomb(mib: number, name = 'activities/bomb.gpx'): Uint8Array {
  const data = zlib.deflateRawSync(Buffer.alloc(mib * 1024 * 1024), { level: 9 });
  return storedZip([{ name, data, method: 8, size: Math.min(mib * 1024 * 1024, 0xffffffff) }]);
}

interface RawEntry {
  name: string;
  data: Uint8Array;
  method: number;
  /** The uncompressed size the archive declares. */
  size: number;
}

/** A zip written by hand, so that tests can make it lie about its sizes. */
export function storedZip(entries: RawEntry[]): Uint8Array {
  const enc = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, e.method, true);
    local.setUint32(18, e.data.length, true);
    local.setUint32(22, e.size, true);
    local.setUint16(26, name.length, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true);
    central.setUint16(6, 20, true);
    central.setUint16(10, e.method, true);
    central.setUint32(20, e.data.length, true);
    central.setUint32(24, e.size, true);
    central.setUint16(28, name.length, true);
    central.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), name, e.data);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.length + e.data.length;
  }
  const dir = concat(centrals);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, dir.length, true);
  end.setUint32(16, offset, true);
  return concat([...locals, dir, new Uint8Array(end.buffer)]);
}

/**
 * A zip whose directory names one member `copies` times under different names, every entry
 * pointing at the same bytes (overlapping members: each would expand the same data again).
 */
export function overlappingZip(content: string, copies: number): Uint8Array {
  const data = zlib.deflateRawSync(Buffer.from(content));
  const name = new TextEncoder().encode('runs-0.csv');
  const local = new DataView(new ArrayBuffer(30));
  local.setUint32(0, 0x04034b50, true);
  local.setUint16(4, 20, true);
  local.setUint16(8, 8, true);
  local.setUint32(18, data.length, true);
  local.setUint32(22, Buffer.byteLength(content), true);
  local.setUint16(26, name.length, true);
  const centrals: Uint8Array[] = [];
  for (let i = 0; i < copies; i++) {
    const copyName = new TextEncoder().encode(`runs-${i}.csv`);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true);
    central.setUint16(6, 20, true);
    central.setUint16(10, 8, true);
    central.setUint32(20, data.length, true);
    central.setUint32(24, Buffer.byteLength(content), true);
    central.setUint16(28, copyName.length, true);
    central.setUint32(42, 0, true);
    centrals.push(new Uint8Array(central.buffer), copyName);
  }
  const dir = concat(centrals);
  const before = 30 + name.length + data.length;
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, copies, true);
  end.setUint16(10, copies, true);
  end.setUint32(12, dir.length, true);
  end.setUint32(16, before, true);
  return concat([new Uint8Array(local.buffer), name, data, dir, new Uint8Array(end.buffer)]);
}

/** A gzip file of `text` repeated over `mib` MiB (a CSV bomb: a line a thousand times smaller compressed). */
export const repeatedGzip = (text: string, mib: number): Uint8Array =>
  zlib.gzipSync(Buffer.alloc(mib * 1024 * 1024, text), { level: 9 });

/** Deflates bytes raw (a zip entry's data). */
export const deflateRaw = (data: Uint8Array): Uint8Array => zlib.deflateRawSync(data);

/** "Billion laughs": nested entities that would expand to gigabytes. */
export function billionLaughs(): string {
  const entities = ['<!ENTITY lol "lol">'];
  for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
  return `<?xml version="1.0"?>\n<!DOCTYPE gpx [\n${entities.join('\n')}\n]>\n<gpx version="1.1"><trk><name>&lol9;</name><trkseg><trkpt lat="1" lon="1"><time>2024-01-01T00:00:00Z</time></trkpt><trkpt lat="1.01" lon="1"><time>2024-01-01T00:10:00Z</time></trkpt></trkseg></trk></gpx>`;
}
