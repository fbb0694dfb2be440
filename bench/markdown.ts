/**
 * npx tsx bench/markdown.ts bench/results/<file>.json
 *
 * Prints the results of a `npm run bench` run as Markdown tables (as in docs/performance.md).
 */
import fs from 'node:fs';
import { fmt as n, perCpuScaling, type BenchReport } from './lib/report.js';

const file = process.argv[2];
if (!file) {
  console.error('Usage: npx tsx bench/markdown.ts bench/results/<file>.json');
  process.exit(1);
}
const report = JSON.parse(fs.readFileSync(file, 'utf8')) as BenchReport;
console.log(
  `${report.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}, ${report.date.slice(0, 16).replace('T', ' ')} UTC, ` +
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
  console.log(
    `| ${row.name} | ${n(row.rps)} | ${n(row.p50, 1)} | ${n(row.p99, 1)} | ${n(row.ofCeiling * 100)}% | ` +
      `${n(row.cpuMsPerRequest, 3)} | ${n(ratio, 2)} |`,
  );
}
console.log(
  `\nServer memory at the end: ${n(report.full.memory.rssMb)} MB RSS (peak ${n(report.full.memory.peakRssMb)} MB).\n`,
);
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
for (const t of report.targets)
  console.log(`- ${t.pass ? 'PASS' : 'FAIL'} ${t.target}${t.detail ? `: ${t.detail}` : ''}`);
