/**
 * A run's track as stored (docs/decisions/021-track-storage.md): written once, read whole.
 *
 *   version (1 byte) | body length (varint) | CRC-32 of what follows (4 bytes) | the body, brotli-compressed
 *
 * Brotli at quality 5 packs the body 14% tighter than deflate (16.7 -> 14.4 KB for an hour of a
 * watch's samples, measured on server/test/imports/track-fixtures.ts realisticFit) in about the
 * same time, which keeps a stored hour under §17's 25 KB; the CRC finds the damage brotli may not.
 *
 * The body holds the number of samples, then the columns one after the other, each quantised to the precision of
 * core/tracks/precision.ts and written as zigzag varints of the differences between
 * consecutive values, so that a second's step is one or two small bytes that compress well:
 *   t in ms | per channel (lat, lon, d, ele, hr, cad): a kind byte (absent, every sample,
 *   or some: then a bitmap of the samples that have it), and the values it has
 *   | laps (count; start ms, distance cm, time ms) | pauses (count; from, to ms)
 *   | device elevation (0, or 1 and gain, loss in cm).
 * Reading trusts nothing: every count is checked against the bytes left before anything is
 * allocated, the body decompresses to at most its stated length, and any inconsistency throws
 * DamagedTrackError.
 */
import zlib from 'node:zlib';
import { UNITS_PER } from '../../../core/tracks/precision.js';
import { MAX_TRACK_SAMPLES, type Track } from '../../../core/tracks/types.js';

const VERSION = 1;

export class DamagedTrackError extends Error {
  constructor(detail: string) {
    super(`The stored track is damaged: ${detail}.`);
    this.name = 'DamagedTrackError';
  }
}

type Channel = 'lat' | 'lon' | 'd' | 'ele' | 'hr' | 'cad';

/** Each channel's unit; cadence in whole steps unless a value has a fraction (then 1/64 of a step). */
const CHANNELS: { key: Channel; unitsPer: number; finer?: number }[] = [
  { key: 'lat', unitsPer: UNITS_PER.degree },
  { key: 'lon', unitsPer: UNITS_PER.degree },
  { key: 'd', unitsPer: UNITS_PER.metre },
  { key: 'ele', unitsPer: UNITS_PER.elevationMetre },
  { key: 'hr', unitsPer: UNITS_PER.beat },
  { key: 'cad', unitsPer: 1, finer: UNITS_PER.step },
];

const ABSENT = 0;
const EVERY_SAMPLE = 1;
const SOME_SAMPLES = 2;
/** Or-ed into the kind byte: the channel's values are in its finer unit. */
const FINER = 4;

/** Laps and pauses a track may hold (a device's laps and stops are far fewer than its samples). */
const MAX_LAPS = MAX_TRACK_SAMPLES;
const MAX_PAUSES = MAX_TRACK_SAMPLES;
/** Beyond any body the limits above allow (about 20 MiB at worst): a length past it is damage. */
const MAX_BODY_BYTES = 24 * 1024 * 1024;
/** Quantised values stay well inside the integers a double holds exactly, differences included. */
const MAX_UNITS = 2 ** 50;

function units(value: number, unitsPer: number, what: string): number {
  const quantised = Math.round(value * unitsPer);
  if (!(Math.abs(quantised) <= MAX_UNITS)) throw new RangeError(`A track's ${what} is out of range (${value}).`);
  return quantised;
}

export class Writer {
  private bytes: Uint8Array;
  private at = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(capacity, 64));
  }

  private room(more: number) {
    if (this.at + more <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.at + more));
    grown.set(this.bytes.subarray(0, this.at));
    this.bytes = grown;
  }

  byte(value: number) {
    this.room(1);
    this.bytes[this.at++] = value;
  }

  raw(bytes: Uint8Array) {
    this.room(bytes.length);
    this.bytes.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** A non-negative integer, 7 bits a byte, least significant first. */
  uint(value: number) {
    this.room(8);
    let rest = value;
    while (rest >= 0x80) {
      this.bytes[this.at++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.bytes[this.at++] = rest;
  }

  /** Zigzag: small magnitudes of either sign stay small. */
  int(value: number) {
    this.uint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  done(): Uint8Array {
    return this.bytes.subarray(0, this.at);
  }
}

/** 8 bytes of 7 bits hold more than any value written: a longer varint is damage. */
const VARINT_LIMIT = 0x80 ** 8;

export class Reader {
  private at = 0;

  constructor(private readonly bytes: Uint8Array) {}

  get left(): number {
    return this.bytes.length - this.at;
  }

  byte(): number {
    if (this.at >= this.bytes.length) throw new DamagedTrackError('it ends too soon');
    return this.bytes[this.at++]!;
  }

  take(length: number): Uint8Array {
    if (length > this.left) throw new DamagedTrackError('it ends too soon');
    this.at += length;
    return this.bytes.subarray(this.at - length, this.at);
  }

  /** A non-negative integer, 7 bits a byte, least significant first. */
  uint(): number {
    const bytes = this.bytes;
    let value = 0;
    let scale = 1;
    let byte: number;
    do {
      if (this.at >= bytes.length) throw new DamagedTrackError('it ends too soon');
      byte = bytes[this.at++]!;
      value += (byte & 0x7f) * scale;
      scale *= 0x80;
    } while (byte >= 0x80 && scale < VARINT_LIMIT);
    if (byte >= 0x80) throw new DamagedTrackError('a number is too long');
    return value;
  }

  int(): number {
    const zigzag = this.uint();
    return zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
  }

  /**
   * The running sums of zigzag differences, over `unitsPer`, into the samples `present` marks
   * (NaN in the others): the hot loop of reading a track. Differences of up to 4 bytes (28
   * bits, nearly all of them) are read with integer arithmetic, longer ones by uint(); a read
   * past the end gives undefined, which ends a varint, so the end is checked once, after.
   */
  sums(out: number[], unitsPer: number, present: Uint8Array | null): void {
    const bytes = this.bytes;
    let at = this.at;
    let value = 0;
    for (let i = 0; i < out.length; i++) {
      if (present !== null && (present[i >> 3]! & (1 << (i & 7))) === 0) {
        out[i] = NaN;
        continue;
      }
      const first = at;
      let byte = bytes[at++]!;
      let zigzag = byte & 0x7f;
      if (byte >= 0x80) {
        byte = bytes[at++]!;
        zigzag |= (byte & 0x7f) << 7;
        if (byte >= 0x80) {
          byte = bytes[at++]!;
          zigzag |= (byte & 0x7f) << 14;
          if (byte >= 0x80) {
            byte = bytes[at++]!;
            zigzag |= (byte & 0x7f) << 21;
            if (byte >= 0x80) {
              this.at = first;
              const long = this.uint();
              at = this.at;
              value += long % 2 === 0 ? long / 2 : -(long + 1) / 2;
              out[i] = value / unitsPer;
              continue;
            }
          }
        }
      }
      value += (zigzag >>> 1) ^ -(zigzag & 1);
      out[i] = value / unitsPer;
    }
    if (at > bytes.length) throw new DamagedTrackError('it ends too soon');
    this.at = at;
  }

  /** A count of items of at least `bytesEach` bytes, checked against what is left before anything is allocated. */
  count(max: number, bytesEach: number): number {
    const count = this.uint();
    if (count > max || count * bytesEach > this.left) throw new DamagedTrackError('a count is larger than its data');
    return count;
  }
}

/** The stored form of a track, quantised to §13's precision. */
export function encodeTrack(track: Track): Buffer {
  const n = track.t.length;
  if (n > MAX_TRACK_SAMPLES) throw new RangeError(`A track keeps at most ${MAX_TRACK_SAMPLES} samples (${n}).`);
  if (track.laps.length > MAX_LAPS || track.pauses.length > MAX_PAUSES) {
    throw new RangeError('A track has more laps or pauses than it may keep.');
  }
  const body = new Writer(n * 10 + 64);
  body.uint(n);
  let previous = 0;
  for (const t of track.t) {
    const ms = units(t, UNITS_PER.second, 'time');
    body.int(ms - previous);
    previous = ms;
  }
  for (const channel of CHANNELS) writeChannel(body, track[channel.key], n, channel);
  body.uint(track.laps.length);
  previous = 0;
  for (const lap of track.laps) {
    const start = units(lap.start, UNITS_PER.second, 'lap start');
    body.int(start - previous);
    body.int(units(lap.distance, UNITS_PER.metre, 'lap distance'));
    body.int(units(lap.time, UNITS_PER.second, 'lap time'));
    previous = start;
  }
  body.uint(track.pauses.length);
  previous = 0;
  for (const [from, to] of track.pauses) {
    const fromMs = units(from, UNITS_PER.second, 'pause');
    const toMs = units(to, UNITS_PER.second, 'pause');
    body.int(fromMs - previous);
    body.int(toMs - fromMs);
    previous = toMs;
  }
  if (track.deviceElevation) {
    body.byte(1);
    body.int(units(track.deviceElevation.gain, UNITS_PER.metre, 'elevation gain'));
    body.int(units(track.deviceElevation.loss, UNITS_PER.metre, 'elevation loss'));
  } else body.byte(0);

  const plain = body.done();
  const stored = new Writer(plain.length / 2 + 16);
  stored.byte(VERSION);
  stored.uint(plain.length);
  const packed = zlib.brotliCompressSync(plain, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: plain.length },
  });
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(zlib.crc32(packed));
  stored.raw(crc);
  stored.raw(packed);
  return Buffer.from(stored.done());
}

function writeChannel(
  body: Writer,
  values: number[] | null,
  n: number,
  channel: { key: Channel; unitsPer: number; finer?: number },
) {
  if (values === null) {
    body.byte(ABSENT);
    return;
  }
  if (values.length !== n)
    throw new RangeError(`A track's ${channel.key} has ${values.length} values for ${n} samples.`);
  const fine = channel.finer ?? channel.unitsPer;
  const quantised: number[] = [];
  let present = 0;
  let whole = true;
  const bitmap = new Uint8Array(Math.ceil(n / 8));
  for (let i = 0; i < n; i++) {
    const value = values[i]!;
    if (Number.isNaN(value)) continue;
    const q = units(value, fine, channel.key);
    quantised.push(q);
    whole &&= q % (fine / channel.unitsPer) === 0;
    bitmap[i >> 3]! |= 1 << (i & 7);
    present++;
  }
  const finer = channel.finer !== undefined && !whole;
  const divisor = finer ? 1 : fine / channel.unitsPer;
  body.byte((present === n ? EVERY_SAMPLE : SOME_SAMPLES) | (finer ? FINER : 0));
  if (present !== n) body.raw(bitmap);
  let previous = 0;
  for (const q of quantised) {
    const value = q / divisor;
    body.int(value - previous);
    previous = value;
  }
}

/** A stored track back; throws DamagedTrackError when the bytes are not one. */
export function decodeTrack(bytes: Uint8Array): Track {
  const header = new Reader(bytes);
  const version = header.byte();
  if (version !== VERSION) throw new DamagedTrackError(`unknown version ${version}`);
  const length = header.uint();
  if (length > MAX_BODY_BYTES) throw new DamagedTrackError('its body is too long');
  let plain: Uint8Array;
  const crc = Buffer.from(header.take(4)).readUInt32LE(0);
  const packed = header.take(header.left);
  if (zlib.crc32(packed) !== crc) throw new DamagedTrackError('its body does not match its checksum');
  try {
    plain = zlib.brotliDecompressSync(packed, { maxOutputLength: Math.max(length, 1) });
  } catch {
    throw new DamagedTrackError('its body does not decompress');
  }
  if (plain.length !== length) throw new DamagedTrackError('its body is not of its stated length');
  const body = new Reader(plain);
  // Every sample takes at least a byte of time.
  const n = body.count(MAX_TRACK_SAMPLES, 1);
  const t = new Array<number>(n);
  body.sums(t, UNITS_PER.second, null);
  const channels = {} as Record<Channel, number[] | null>;
  for (const channel of CHANNELS) channels[channel.key] = readChannel(body, n, channel);
  const laps: Track['laps'] = new Array(body.count(MAX_LAPS, 3));
  let start = 0;
  for (let i = 0; i < laps.length; i++) {
    start += body.int();
    laps[i] = {
      start: start / UNITS_PER.second,
      distance: body.int() / UNITS_PER.metre,
      time: body.int() / UNITS_PER.second,
    };
  }
  const pauses: Track['pauses'] = new Array(body.count(MAX_PAUSES, 2));
  let to = 0;
  for (let i = 0; i < pauses.length; i++) {
    const from = to + body.int();
    to = from + body.int();
    pauses[i] = [from / UNITS_PER.second, to / UNITS_PER.second];
  }
  const elevation = body.byte();
  if (elevation > 1) throw new DamagedTrackError('an unknown flag');
  const deviceElevation =
    elevation === 1 ? { gain: body.int() / UNITS_PER.metre, loss: body.int() / UNITS_PER.metre } : null;
  if (body.left !== 0) throw new DamagedTrackError('bytes are left over');
  return { t, ...channels, laps, pauses, deviceElevation };
}

function readChannel(body: Reader, n: number, channel: { unitsPer: number; finer?: number }): number[] | null {
  const kind = body.byte();
  if (kind === ABSENT) return null;
  const presence = kind & ~FINER;
  if ((kind & FINER && channel.finer === undefined) || (presence !== EVERY_SAMPLE && presence !== SOME_SAMPLES)) {
    throw new DamagedTrackError('an unknown kind of channel');
  }
  const unitsPer = kind & FINER ? channel.finer! : channel.unitsPer;
  const values = new Array<number>(n);
  body.sums(values, unitsPer, presence === SOME_SAMPLES ? body.take(Math.ceil(n / 8)) : null);
  return values;
}
