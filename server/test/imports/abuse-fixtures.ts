/**
 * Small files that cost a careless importer far more than their size (docs/reliability.md,
 * "Limits"): for the tests that show each is bounded and for bench:import's stall measurements.
 */
import zlib from 'node:zlib';
import { CrcCalculator, Encoder, Profile } from '@garmin/fitsdk';
import { EXPORT_FORMAT_NAME, EXPORT_VERSION, ZIP_EXPORT_INDEX } from '../../../core/imports.js';
import { zip } from './fixtures.js';

const put = (encoder: Encoder, num: number, mesg: Record<string, unknown>) => encoder.onMesg(num, mesg as never);
const MESG = {
  FILE_ID: Profile.MesgNum.FILE_ID!,
  EVENT: Profile.MesgNum.EVENT!,
  RECORD: Profile.MesgNum.RECORD!,
  LAP: Profile.MesgNum.LAP!,
  SESSION: Profile.MesgNum.SESSION!,
};

const START = new Date('2026-03-01T07:00:00Z');
const at = (seconds: number) => new Date(START.getTime() + seconds * 1000);

/**
 * One FIT of `records` records (one a second) followed by `sessions` running sessions, each
 * declaring the whole span: every session's track lies over the same records.
 */
export function sessionsOverSharedRecords(sessions: number, records: number): Uint8Array {
  const encoder = new Encoder();
  put(encoder, MESG.FILE_ID, { manufacturer: 'garmin', product: 3113, timeCreated: START, type: 'activity' });
  for (let t = 0; t < records; t++) put(encoder, MESG.RECORD, { timestamp: at(t), distance: t * 3, heartRate: 140 });
  for (let i = 0; i < sessions; i++) {
    put(encoder, MESG.SESSION, {
      timestamp: at(records),
      startTime: START,
      totalElapsedTime: records,
      totalTimerTime: records,
      totalDistance: records * 3,
      sport: 'running',
      subSport: 'generic',
      messageIndex: i,
    });
  }
  return encoder.close();
}

/** FIT's epoch (1989-12-31T00:00:00Z) in epoch seconds. */
const FIT_EPOCH_S = 631_065_600;
const fitTime = (seconds: number) => Math.floor(START.getTime() / 1000) - FIT_EPOCH_S + seconds;

/**
 * A FIT file written byte by byte (Garmin's encoder takes ~90 µs a message): `definitions`
 * gives each local message its global number and fields (number, size 1 or 4), and `messages`
 * are [local, values] in order. Header and CRC valid.
 */
function rawFit(definitions: [number, [number, 1 | 4][]][], messages: Iterable<[number, number[]]>): Uint8Array {
  const parts: number[] = [];
  definitions.forEach(([global, fields], local) => {
    parts.push(0x40 | local, 0, 0, global & 0xff, global >> 8, fields.length);
    for (const [num, size] of fields) parts.push(num, size, size === 1 ? 0x02 : 0x86);
  });
  for (const [local, values] of messages) {
    parts.push(local);
    definitions[local]![1].forEach(([, size], i) => {
      const v = values[i]!;
      if (size === 1) parts.push(v & 0xff);
      else parts.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
    });
  }
  const bytes = new Uint8Array(14 + parts.length + 2);
  const view = new DataView(bytes.buffer);
  bytes[0] = 14;
  bytes[1] = 0x20;
  view.setUint16(2, 2132, true);
  view.setUint32(4, parts.length, true);
  bytes.set([0x2e, 0x46, 0x49, 0x54], 8);
  view.setUint16(12, CrcCalculator.calculateCRC(bytes, 0, 12), true);
  bytes.set(parts, 14);
  view.setUint16(14 + parts.length, CrcCalculator.calculateCRC(bytes, 0, 14 + parts.length), true);
  return bytes;
}

/** One running session of an hour or more over a record a minute, with `laps` laps and `pauses` timer stops of a second. */
export function manyLapsFit(laps: number, pauses: number): Uint8Array {
  // A pause of a second every other second, after the first minute.
  const seconds = Math.max(3600, 60 + 2 * pauses + 60);
  const TIMER = 0;
  const [START_EVENT, STOP_ALL] = [0, 4];
  const RUNNING = 1;
  function* messages(): Generator<[number, number[]]> {
    yield [2, [fitTime(0), TIMER, START_EVENT]];
    for (let t = 0; t <= seconds; t += 60) yield [0, [fitTime(t), t * 300]];
    for (let i = 0; i < pauses; i++) {
      yield [2, [fitTime(60 + 2 * i), TIMER, STOP_ALL]];
      yield [2, [fitTime(61 + 2 * i), TIMER, START_EVENT]];
    }
    for (let i = 0; i < laps; i++) {
      const start = Math.floor((i * seconds) / laps);
      yield [1, [fitTime(start + 1), fitTime(start), 1000, 1000, 300]];
    }
    yield [3, [fitTime(seconds), fitTime(0), seconds * 1000, seconds * 1000, seconds * 300, RUNNING]];
  }
  return rawFit(
    [
      [
        20,
        [
          [253, 4],
          [5, 4],
        ],
      ],
      [
        19,
        [
          [253, 4],
          [2, 4],
          [7, 4],
          [8, 4],
          [9, 4],
        ],
      ],
      [
        21,
        [
          [253, 4],
          [0, 1],
          [1, 1],
        ],
      ],
      [
        18,
        [
          [253, 4],
          [2, 4],
          [7, 4],
          [8, 4],
          [9, 4],
          [5, 1],
        ],
      ],
    ],
    messages(),
  );
}

/**
 * A gzipped FIT of `mib` MiB of identical `record` messages (a definition, then 10-byte records),
 * with a valid header and CRC: a few hundred KiB on the wire.
 */
export function repeatedRecordsFitGz(mib: number): Uint8Array {
  // Definition of local message 0 as `record` (20), little-endian: timestamp (253, uint32),
  // distance (5, uint32), heart_rate (3, uint8).
  const definition = Uint8Array.from([0x40, 0, 0, 20, 0, 3, 253, 4, 0x86, 5, 4, 0x86, 3, 1, 0x02]);
  const record = Uint8Array.from([0x00, 0x10, 0x32, 0x54, 0x3f, 0xe8, 0x03, 0x00, 0x00, 0x8c]);
  const count = Math.floor((mib * 1024 * 1024) / record.length);
  const dataSize = definition.length + count * record.length;
  const header = new Uint8Array(14);
  const view = new DataView(header.buffer);
  header[0] = 14;
  header[1] = 0x20;
  view.setUint16(2, 2132, true);
  view.setUint32(4, dataSize, true);
  header.set([0x2e, 0x46, 0x49, 0x54], 8);
  view.setUint16(12, CrcCalculator.calculateCRC(header, 0, 12), true);
  const bytes = new Uint8Array(14 + dataSize + 2);
  bytes.set(header, 0);
  bytes.set(definition, 14);
  for (let i = 0, at = 14 + definition.length; i < count; i++, at += record.length) bytes.set(record, at);
  new DataView(bytes.buffer).setUint16(14 + dataSize, CrcCalculator.calculateCRC(bytes, 0, 14 + dataSize), true);
  return zlib.gzipSync(bytes);
}

/**
 * A zip export (this server's JSON index) whose `rows` entries all name the same activity file,
 * `member`, stored beside it.
 */
export function indexNamingOneMember(rows: number, member: Uint8Array, name = 'activities/1.fit'): Uint8Array {
  const entries = Array.from({ length: rows }, (_, i) => ({
    date: '2026-03-01',
    distance: 10 + i / 1000,
    time: '00:50:00',
    file: name,
  }));
  const index = JSON.stringify({ format: EXPORT_FORMAT_NAME, version: EXPORT_VERSION, shoes: [], goals: [], entries });
  return zip({ [ZIP_EXPORT_INDEX]: index, [name]: member });
}
