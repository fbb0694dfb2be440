/**
 * npx tsx bench/track-parse.ts [--rounds N]
 *
 * What keeping a run's track costs the import of a FIT file (CONTRACT.md §13, §17): for a
 * one-hour watch file recorded every second (position, distance, elevation, heart rate,
 * cadence, a pause, 1 km laps), the milliseconds to decode it with the FIT SDK alone (with its
 * default options, and with the options the parser uses) and to parse it with its track
 * (`parseFit`), then to store its track as well (`encodeTrack`), and their ratios. §17 asks
 * the import to run at least at half the rate of decoding alone, storage included: the
 * parser's and the codec's share must stay well under 2x. Then the stored size of that hour
 * and the time to read a three-hour track back (`decodeTrack`), against decompressing its bytes
 * alone. The rounds alternate so the machine's noise falls on all alike; medians are printed.
 */
import { parseArgs } from 'node:util';
import { Decoder, Stream } from '@garmin/fitsdk';
import zlib from 'node:zlib';
import type { Track } from '../core/tracks/types.js';
import { decodeFit, parseFit } from '../server/features/imports/parsers/fit.js';
import { decodeTrack, encodeTrack } from '../server/features/tracks/codec.js';
import { realisticFit } from '../server/test/imports/track-fixtures.js';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '30' } } });
const ROUNDS = Number(args.rounds);

const trackOf = (fit: Uint8Array): Track => {
  const row = parseFit('bench.fit', fit).rows[0];
  if (!row || !('run' in row) || !row.run.track) throw new Error('the bench file gave no track');
  return row.run.track;
};
const bytes = realisticFit(3600, { pause: { at: 1800, seconds: 90 }, fractionalCadence: true });
const hour = encodeTrack(trackOf(bytes));
const threeHours = encodeTrack(trackOf(realisticFit(3 * 3600, { seed: 2, fractionalCadence: true })));
// The codec's header is a version byte, the body's length (a varint: its last byte is under 0x80)
// and a 4-byte CRC; the brotli stream follows.
let lengthEnd = 1;
while (threeHours[lengthEnd]! >= 0x80) lengthEnd++;
const threeHoursBrotli = threeHours.subarray(lengthEnd + 1 + 4);
const contenders = {
  'SDK decode, default options': () => new Decoder(Stream.fromByteArray(bytes)).read(),
  "SDK decode, the parser's options": () => decodeFit(bytes),
  'parseFit with the track': () => parseFit('bench.fit', bytes),
  'parseFit, then encodeTrack': () => encodeTrack(trackOf(bytes)),
  'decodeTrack, 3 hours': () => decodeTrack(threeHours),
  'brotli alone, 3 hours': () => zlib.brotliDecompressSync(threeHoursBrotli),
};
const times = new Map<string, number[]>(Object.keys(contenders).map((name) => [name, []]));
// The first rounds warm the JIT and are not counted.
for (let round = -5; round < ROUNDS; round++) {
  for (const [name, run] of Object.entries(contenders)) {
    const started = performance.now();
    run();
    if (round >= 0) times.get(name)!.push(performance.now() - started);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const medians = new Map([...times].map(([name, values]) => [name, median(values)]));
const samples = trackOf(bytes).t.length;
console.log(
  `One hour at 1 Hz: ${(bytes.length / 1024).toFixed(0)} KiB of FIT, ${samples} samples, stored in ${hour.length} bytes ` +
    `(three hours: ${threeHours.length}); median of ${ROUNDS} rounds:`,
);
const baseline = medians.get("SDK decode, the parser's options")!;
const defaults = medians.get('SDK decode, default options')!;
const decompress = medians.get('brotli alone, 3 hours')!;
for (const [name, ms] of medians) {
  const against = name.endsWith('3 hours')
    ? `x${(ms / decompress).toFixed(2)} of decompressing alone`
    : `x${(ms / baseline).toFixed(2)} of the parser's decoding, x${(ms / defaults).toFixed(2)} of the default decoding`;
  console.log(`  ${name.padEnd(36)} ${ms.toFixed(2).padStart(7)} ms   ${against}`);
}
