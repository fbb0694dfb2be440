/**
 * The stored form of a track (codec.ts, docs/decisions/021-track-storage.md): what goes in comes
 * back at §13's precision, an hour of a watch's samples fits in 25 KB, and damaged bytes are
 * refused with a clear error, never read on or allocated for.
 */
import zlib from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_TRACK_SAMPLES, type Track } from '../../../core/tracks/types.js';
import { parseFit } from '../imports/parsers/fit.js';
import { realisticFit } from '../../test/imports/track-fixtures.js';
import { DamagedTrackError, decodeTrack, encodeTrack } from './codec.js';

/** Rounds to a whole number of 1/unitsPer, as stored (no -0: the stored 0 reads back as 0). */
const toUnit = (unitsPer: number) => (value: number) =>
  Number.isNaN(value) ? NaN : Math.round(value * unitsPer) / unitsPer + 0;

/** A track as storage keeps it, worked out here apart from the codec. */
function quantised(track: Track): Track {
  const column = (values: number[] | null, unitsPer: number) => values?.map(toUnit(unitsPer)) ?? null;
  const ms = toUnit(1000);
  const cm = toUnit(100);
  return {
    t: track.t.map(ms),
    lat: column(track.lat, 1e6),
    lon: column(track.lon, 1e6),
    d: column(track.d, 100),
    ele: column(track.ele, 10),
    hr: column(track.hr, 1),
    cad: column(track.cad, 64),
    laps: track.laps.map((lap) => ({ start: ms(lap.start), distance: cm(lap.distance), time: ms(lap.time) })),
    pauses: track.pauses.map(([from, to]) => [ms(from), ms(to)]),
    deviceElevation: track.deviceElevation && {
      gain: cm(track.deviceElevation.gain),
      loss: cm(track.deviceElevation.loss),
    },
  };
}

const watchTrack = (seconds: number, seed = 3): Track => {
  const row = parseFit(
    'watch.fit',
    realisticFit(seconds, { seed, pause: { at: 1200, seconds: 75 }, fractionalCadence: true }),
  ).rows[0];
  if (!row || !('run' in row) || !row.run.track) throw new Error('no track');
  return row.run.track;
};

/** Random tracks: any length up to 300, each channel absent, full, or with NaN gaps. */
const arbitraryTrack: fc.Arbitrary<Track> = fc.integer({ min: 0, max: 300 }).chain((n) => {
  const column = (min: number, max: number, gaps = true) =>
    fc.oneof(
      fc.constant(null),
      fc.array(fc.double({ min, max, noNaN: true }), { minLength: n, maxLength: n }),
      ...(gaps
        ? [
            fc.array(fc.oneof(fc.constant(NaN), fc.double({ min, max, noNaN: true })), {
              minLength: n,
              maxLength: n,
            }),
          ]
        : []),
    );
  const wholeCadence = fc.array(fc.oneof(fc.constant(NaN), fc.integer({ min: 0, max: 250 })), {
    minLength: n,
    maxLength: n,
  });
  const seconds = fc.double({ min: 0, max: 1e6, noNaN: true });
  return fc.record({
    t: fc.array(fc.double({ min: 0.001, max: 3600, noNaN: true }), { minLength: n, maxLength: n }).map((steps) => {
      let at = 0;
      return steps.map((step, i) => (i === 0 ? 0 : (at += step)));
    }),
    lat: column(-90, 90),
    lon: column(-180, 180),
    d: column(0, 1e7, false),
    ele: column(-2000, 12_000),
    hr: column(0, 300),
    cad: fc.oneof(column(0, 1000), wholeCadence),
    laps: fc.array(
      fc.record({ start: seconds, distance: fc.double({ min: 0, max: 1e6, noNaN: true }), time: seconds }),
      { maxLength: 5 },
    ),
    pauses: fc.array(fc.tuple(seconds, seconds), { maxLength: 5 }),
    deviceElevation: fc.option(
      fc.record({ gain: fc.integer({ min: 0, max: 20_000 }), loss: fc.integer({ min: 0, max: 20_000 }) }),
    ),
  });
});

describe('encodeTrack and decodeTrack', () => {
  it('give back the quantised track: NaN gaps, absent channels, laps, pauses and totals', () => {
    fc.assert(
      fc.property(arbitraryTrack, (track) => {
        const stored = encodeTrack(track);
        const back = decodeTrack(stored);
        expect(back).toEqual(quantised(track));
        // What is read back is stored the same again.
        expect(encodeTrack(back).equals(stored)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('keep a parsed watch track exactly, an hour of it in at most 25 KB', () => {
    const track = watchTrack(3600);
    expect(track.t).toHaveLength(3601);
    expect(track.cad!.some((cad) => !Number.isInteger(cad))).toBe(true);
    const stored = encodeTrack(track);
    expect(stored.length).toBeLessThanOrEqual(25_000);
    expect(decodeTrack(stored)).toEqual(track);
  });

  it('store whole cadences in whole steps: a fraction only where the file has one', () => {
    const track = watchTrack(600);
    const whole = { ...track, cad: track.cad!.map(Math.round) };
    expect(encodeTrack(whole).length).toBeLessThan(encodeTrack(track).length);
    expect(decodeTrack(encodeTrack(whole)).cad).toEqual(whole.cad);
  });

  it('refuse to store what a track cannot hold', () => {
    const track = watchTrack(60);
    expect(() => encodeTrack({ ...track, hr: track.hr!.slice(1) })).toThrow(/hr has 60 values for 61 samples/);
    expect(() => encodeTrack({ ...track, t: track.t.map((t, i) => (i === 5 ? NaN : t)) })).toThrow(
      /time is out of range/,
    );
    expect(() => encodeTrack({ ...track, ele: track.ele!.map(() => 1e300) })).toThrow(/ele is out of range/);
    const tooLong = new Array<number>(MAX_TRACK_SAMPLES + 1).fill(0).map((_, i) => i);
    expect(() =>
      encodeTrack({ ...track, t: tooLong, lat: null, lon: null, d: null, ele: null, hr: null, cad: null }),
    ).toThrow(/at most 200000 samples/);
  });
});

describe('damaged bytes', () => {
  const stored = encodeTrack(watchTrack(120));

  it('are refused whatever byte is changed or wherever they are cut', () => {
    for (let at = 0; at < stored.length; at++) {
      const changed = Buffer.from(stored);
      changed[at] = changed[at]! ^ 0x5a;
      expect(() => decodeTrack(changed), `byte ${at} changed`).toThrow(DamagedTrackError);
      expect(() => decodeTrack(stored.subarray(0, at)), `cut at ${at}`).toThrow(DamagedTrackError);
    }
  });

  it('name what is wrong', () => {
    expect(() => decodeTrack(Buffer.from([9, ...stored.subarray(1)]))).toThrow(
      'The stored track is damaged: unknown version 9.',
    );
    expect(() => decodeTrack(new Uint8Array())).toThrow('The stored track is damaged: it ends too soon.');
  });

  /** Stored bytes around a body written by hand: version 1, the body's length, its CRC-32, the body compressed. */
  const around = (body: Uint8Array, statedLength = body.length) => {
    const length: number[] = [];
    for (let rest = statedLength; ; rest = Math.floor(rest / 128)) {
      length.push(rest >= 128 ? (rest % 128) | 0x80 : rest);
      if (rest < 128) break;
    }
    const packed = zlib.brotliCompressSync(body);
    const crc = Buffer.alloc(4);
    crc.writeUInt32LE(zlib.crc32(packed));
    return Buffer.concat([Buffer.from([1, ...length]), crc, packed]);
  };

  it('never decompress past their stated length, nor allocate for counts their data cannot hold', () => {
    // A body stating 16 bytes that decompresses to 64 MiB (a bomb) is cut at 16 bytes and refused.
    expect(() => decodeTrack(around(new Uint8Array(64 * 1024 * 1024), 16))).toThrow(DamagedTrackError);
    // A length past any track's body is refused before decompressing.
    expect(() => decodeTrack(around(new Uint8Array(4), 2 ** 40))).toThrow('its body is too long');
    // 200,000 samples stated with 3 bytes of data; a billion laps stated after no samples.
    const varint = (value: number) => {
      const bytes: number[] = [];
      for (let rest = value; ; rest = Math.floor(rest / 128)) {
        bytes.push(rest >= 128 ? (rest % 128) | 0x80 : rest);
        if (rest < 128) return bytes;
      }
    };
    expect(() => decodeTrack(around(new Uint8Array([...varint(200_000), 0, 0, 0])))).toThrow(
      'a count is larger than its data',
    );
    expect(() => decodeTrack(around(new Uint8Array([...varint(200_001), ...new Array(200_001).fill(0)])))).toThrow(
      'a count is larger than its data',
    );
    const noSamples = [0, 0, 0, 0, 0, 0, 0];
    expect(() => decodeTrack(around(new Uint8Array([...noSamples, ...varint(1e9), 0])))).toThrow(
      'a count is larger than its data',
    );
    // A varint of more than 8 bytes.
    expect(() => decodeTrack(around(new Uint8Array([1, ...new Array(9).fill(0xff), 1])))).toThrow(
      'a number is too long',
    );
  });

  it('of any kind end in DamagedTrackError, never another error or a hang', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (noise) => {
        for (const bytes of [noise, around(noise)]) {
          try {
            decodeTrack(bytes);
          } catch (error) {
            expect(error).toBeInstanceOf(DamagedTrackError);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
