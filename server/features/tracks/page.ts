/**
 * The run page's answer (CONTRACT.md §14) as stored with its track, computed once at import:
 * everything but `entry_id` and `heart_rate` (which the page adds when asked for).
 *
 *   version (1 byte) | CRC-32 of what follows (4 bytes) | brotli of: the series | the rest as JSON
 *
 * The series (1,000 points of up to five channels) is three quarters of an hour's answer and,
 * as JSON text, packs to 7.4 KB: more than §17's 25 KB an hour leaves once the samples are
 * stored. Its values are on fixed steps (0.1 m, 0.1 s, 0.1 m, whole bpm, whole steps), so it is
 * written as the codec writes a track's channels, zigzag varints of the differences between
 * neighbouring points in those steps, which pack to about 2 KB; reading it back rebuilds the
 * very same numbers (k / 10 is the double that rounding to 0.1 gave).
 */
import { brotliCompressSync, brotliDecompressSync, constants, crc32 } from 'node:zlib';
import type { TrackSeries } from '../../../core/tracks/series.js';
import { DamagedTrackError, Reader, Writer } from './codec.js';

const VERSION = 1;
/** The series' channels in their order, with the steps per unit of their values. */
const COLUMNS = [
  { key: 'distance', per: 10 },
  { key: 'time', per: 10 },
  { key: 'elevation', per: 10 },
  { key: 'heart_rate', per: 1 },
  { key: 'cadence', per: 1 },
] as const;
/** A page's plain bytes are well under this (1,000 points, 2,000 route points, splits of 100 km). */
const MAX_PLAIN_BYTES = 8 * 1024 * 1024;

/** The stored answer: any JSON object with the §14 series under `series`. */
export function packPage(page: { series: TrackSeries | null } & Record<string, unknown>): Uint8Array {
  const { series, ...rest } = page;
  const body = new Writer(16 * 1024);
  const points = series ? series.distance.length : 0;
  // 0: no series; else 1 + the number of points, then a bit per column that is there.
  body.uint(series ? points + 1 : 0);
  if (series) {
    let present = 0;
    COLUMNS.forEach(({ key }, bit) => (present |= series[key] ? 1 << bit : 0));
    body.byte(present);
    for (const { key, per } of COLUMNS) {
      const values = series[key];
      if (!values) continue;
      if (values.length !== points)
        throw new RangeError(`The series' ${key} has ${values.length} of ${points} points.`);
      let previous = 0;
      for (const value of values) {
        const steps = Math.round(value * per);
        body.int(steps - previous);
        previous = steps;
      }
    }
  }
  body.raw(Buffer.from(JSON.stringify(rest)));
  const plain = body.done();
  // Refused here, where the import says why, rather than by the reader on every later request.
  if (plain.length > MAX_PLAIN_BYTES) {
    throw new RangeError(`The run page would be larger than ${MAX_PLAIN_BYTES / 1024 / 1024} MiB.`);
  }
  const packed = brotliCompressSync(plain, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: plain.length },
  });
  const head = Buffer.alloc(5);
  head[0] = VERSION;
  head.writeUInt32LE(crc32(packed), 1);
  return Buffer.concat([head, packed]);
}

/** The stored answer's members as JSON text, without the braces around them: `"series":{...},"samples":...`. */
export function pageMembers(stored: Uint8Array): string {
  if (stored.length < 5 || stored[0] !== VERSION) throw new DamagedTrackError('its page is of an unknown version');
  const packed = stored.subarray(5);
  if (crc32(packed) !== Buffer.from(stored.buffer, stored.byteOffset + 1, 4).readUInt32LE(0)) {
    throw new DamagedTrackError('its page does not match its checksum');
  }
  let plain: Buffer;
  try {
    plain = brotliDecompressSync(packed, { maxOutputLength: MAX_PLAIN_BYTES });
  } catch {
    throw new DamagedTrackError('its page does not decompress');
  }
  const body = new Reader(plain);
  const head = body.uint();
  let series = 'null';
  if (head > 0) {
    const points = head - 1;
    const present = body.byte();
    if (points > body.left) throw new DamagedTrackError('its page has more points than bytes');
    const columns: string[] = [];
    COLUMNS.forEach(({ key, per }, bit) => {
      if ((present & (1 << bit)) === 0) return void columns.push(`"${key}":null`);
      const values = new Array<number>(points);
      let steps = 0;
      for (let i = 0; i < points; i++) {
        steps += body.int();
        values[i] = steps / per;
      }
      columns.push(`"${key}":${JSON.stringify(values)}`);
    });
    series = `{${columns.join(',')}}`;
  }
  const rest = plain.subarray(plain.length - body.left).toString('utf8');
  if (!rest.startsWith('{') || !rest.endsWith('}')) throw new DamagedTrackError('its page is not an object');
  const members = rest.slice(1, -1);
  return members ? `"series":${series},${members}` : `"series":${series}`;
}
