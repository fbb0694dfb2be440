/**
 * npx tsx bench/track-parse.ts [--rounds N]
 *
 * What keeping a run's track costs the import of a FIT file (CONTRACT.md §13, §17): for a
 * one-hour watch file recorded every second (position, distance, elevation, heart rate,
 * cadence, a pause, 1 km laps), the milliseconds to decode it with the FIT SDK alone (with its
 * default options, and with the options the parser uses) and to parse it with its track
 * (`parseFit`), and their ratio. §17 asks the import to run at least at half the rate of
 * decoding alone, storage included: the parser's share must stay well under 2x. The rounds
 * alternate so the machine's noise falls on all three alike; medians are printed.
 */
import { parseArgs } from 'node:util';
import { Decoder, Stream } from '@garmin/fitsdk';
import { decodeFit, parseFit } from '../server/features/imports/parsers/fit.js';
import { realisticFit } from '../server/test/imports/track-fixtures.js';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '30' } } });
const ROUNDS = Number(args.rounds);

const bytes = realisticFit(3600, { pause: { at: 1800, seconds: 90 }, fractionalCadence: true });
const contenders = {
  'SDK decode, default options': () => new Decoder(Stream.fromByteArray(bytes)).read(),
  "SDK decode, the parser's options": () => decodeFit(bytes),
  'parseFit with the track': () => parseFit('bench.fit', bytes),
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
const parsed = parseFit('bench.fit', bytes).rows[0];
const samples = parsed && 'run' in parsed ? (parsed.run.track?.t.length ?? 0) : 0;
console.log(
  `One hour at 1 Hz: ${(bytes.length / 1024).toFixed(0)} KiB of FIT, ${samples} samples; median of ${ROUNDS} rounds:`,
);
const baseline = medians.get("SDK decode, the parser's options")!;
const defaults = medians.get('SDK decode, default options')!;
for (const [name, ms] of medians) {
  console.log(
    `  ${name.padEnd(36)} ${ms.toFixed(2).padStart(7)} ms   x${(ms / baseline).toFixed(2)} of the parser's decoding, x${(ms / defaults).toFixed(2)} of the default decoding`,
  );
}
