/**
 * npx tsx bench/markdown.ts bench/results/<file>.json
 *
 * Prints the results of a `npm run bench` or `npm run bench:import` run as Markdown tables (as in
 * docs/performance.md).
 */
import fs from 'node:fs';
import {
  fmt as n,
  perCpuScaling,
  type BenchReport,
  type ImportReport,
  type Target,
  type TransferResult,
} from './lib/report.js';
import { othersTable } from './lib/others-during.js';
import { describeTrackSizes } from './lib/track-size.js';

const file = process.argv[2];
if (!file) {
  console.error('Usage: npx tsx bench/markdown.ts bench/results/<file>.json');
  process.exit(1);
}
const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as BenchReport | ImportReport;

const database = (dialect: string) => (dialect === 'postgres' ? 'PostgreSQL' : 'SQLite');

function printTargets(targets: Target[]) {
  for (const t of targets) console.log(`- ${t.pass ? 'PASS' : 'FAIL'} ${t.target}${t.detail ? `: ${t.detail}` : ''}`);
}

function printBench(report: BenchReport) {
  console.log(
    `${database(report.dialect)}, ${report.date.slice(0, 16).replace('T', ' ')} UTC, ` +
      `${report.machine.cpus} cores (${report.machine.cpuModel}), load average ${report.machine.loadAverageAtStart[0]} at the start; ` +
      `${report.settings.connections} connections, ${report.settings.duration} s per endpoint and size; ` +
      `${n(report.full.users)} users and ${n(report.full.entries)} runs (seeded in ${n(report.full.seedSeconds, 1)} s), ` +
      `baseline ${n(report.baseline.users)} users and ${n(report.baseline.entries)} runs.\n`,
  );
  /** 1,000,000 as "1M", 10,000 as "10k". */
  const short = (count: number) =>
    count >= 1e6 && count % 1e5 === 0
      ? `${count / 1e6}M`
      : count >= 1e3 && count % 100 === 0
        ? `${count / 1e3}k`
        : n(count);
  console.log(
    `| Endpoint | req/s | p50 ms | p99 ms | of ceiling | CPU ms/req | p50 ${short(report.full.entries)} / ${short(report.baseline.entries)} |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const row of report.full.endpoints) {
    const ratio = report.p50Ratios.find((r) => r.name === row.name)?.ratio ?? Number.NaN;
    // An endpoint loaded at connections of its own says so (the admin panel's are said in the targets).
    const name = row.connections !== undefined ? `${row.name}, ${row.connections} connections` : row.name;
    console.log(
      `| ${name} | ${n(row.rps)} | ${n(row.p50, 1)} | ${n(row.p99, 1)} | ${n(row.ofCeiling * 100)}% | ` +
        `${n(row.cpuMsPerRequest, 3)} | ${n(ratio, 2)} |`,
    );
  }
  console.log(
    `\nServer memory at the end: ${n(report.full.memory.rssMb)} MB RSS (peak ${n(report.full.memory.peakRssMb)} MB).\n`,
  );
  const sizes = report.full.trackSizes;
  if (sizes) {
    console.log(
      `Tracks of the long-history runner (${n(sizes.tracks)}, made and stored by the seed in ` +
        `${n(report.full.trackSeconds ?? Number.NaN, 1)} s): ${describeTrackSizes(sizes)}.\n`,
    );
  }
  if (report.instances) {
    console.log(
      `| ${report.instances.instances} instances, one database | one alone | together | x | machine busy (one / together) | x per busy CPU |`,
    );
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const row of report.instances.endpoints) {
      console.log(
        `| ${row.name} | ${n(row.singleRps)} | ${row.perInstanceRps.map((r) => n(r)).join(' + ')} = ${n(row.totalRps)} | ` +
          `${n(row.scaling, 2)} | ${n(row.machineBusySingle * 100)}% / ${n(row.machineBusyTogether * 100)}% | ` +
          `${n(perCpuScaling(row), 2)} |`,
      );
    }
    console.log('');
  }
  printTargets(report.targets);
}

function printImport(report: ImportReport) {
  console.log(
    `${database(report.dialect)}${report.date ? `, ${report.date.slice(0, 16).replace('T', ' ')} UTC` : ''}` +
      (report.loadAverageAtStart
        ? `, ${report.cpus} cores, load average ${report.loadAverageAtStart[0]} at the start and ${report.loadAverageAtEnd?.[0]} at the end`
        : '') +
      ': ' +
      'one server process on a fresh database, each import one `POST /api/v1/import`.\n',
  );
  const rows: [string, TransferResult | undefined][] = [
    ['Strava CSV', report.stravaCsv],
    ['Zip of FIT activities (summaries)', report.fitZip],
    [
      report.tracks ? `Zip of ${n(report.tracks.files)} watch FIT files, an hour at 1 Hz each` : 'Watch FIT files',
      report.tracks,
    ],
    ['Own CSV', report.ownCsv],
    ['Export CSV', report.export_csv],
    ['Export JSON', report.export_json],
    [report.large ? `Own CSV of ${n(report.large.fileMiB, 1)} MiB` : 'Own CSV, large', report.large],
  ];
  if (rows.some(([, row]) => row)) {
    console.log('| Import or export | runs | s | runs/s | server RSS growth MiB |');
    console.log('|---|---:|---:|---:|---:|');
  }
  for (const [name, row] of rows) {
    if (!row) continue;
    console.log(
      `| ${name} | ${n(row.created ?? Number.NaN)} | ${n(row.seconds, 2)} | ${n(row.runsPerSecond)} | ` +
        `${n(row.rssGrowthMiB ?? Number.NaN, 1)} |`,
    );
  }
  const tracks = report.tracks;
  if (tracks) printTracks(tracks);
  const others = report.others;
  if (others) {
    console.log(
      `\nAnother runner every ${n(others.intervalMs)} ms, open-loop (a write, a read and GET /api/health; ` +
        `ms from the scheduled send to the answer's end), during long work and hostile files ` +
        `(each bounded by ${n(others.itemTimeoutSeconds)} s; hostile files at x${n(others.hostileScale, 2)} their size):\n`,
    );
    for (const line of othersTable(others.items)) console.log(line);
    console.log('');
    printTargets(
      others.items.flatMap((item) => item.targets.map((t) => ({ ...t, target: `${item.label}: ${t.target}` }))),
    );
  }
}

function printTracks(tracks: NonNullable<ImportReport['tracks']>) {
  console.log(
    `\n| Watch files (§17) | import files/s | decoding alone, SDK defaults | decoding alone, parser's options | ` +
      `import / decoding alone | RSS growth MiB | stored KB per hour |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  console.log(
    `| ${n(tracks.files)} x ${n(tracks.secondsPerFile / 3600)} h, ${n(tracks.uploadMiB, 1)} MiB zip | ` +
      `${n(tracks.filesPerSecond, 1)} | ${n(tracks.decodeOnlyFilesPerSecond, 1)} | ${n(tracks.parserDecodeFilesPerSecond, 1)} | ` +
      `${n(tracks.filesPerSecond / tracks.decodeOnlyFilesPerSecond, 2)} / ${n(tracks.filesPerSecond / tracks.parserDecodeFilesPerSecond, 2)} | ` +
      `${n(tracks.rssGrowthMiB, 1)} | ${n(tracks.trackSizes.bytesPerHour / 1000, 1)} |\n`,
  );
  printTargets(tracks.targets);
}

if ('full' in parsed) printBench(parsed);
else printImport(parsed);
