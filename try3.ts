import { createTestApp, registerUser } from './server/test/helpers.ts';
import { importFiles, gpxFile } from './server/test/imports/fixtures.ts';
import { fitFile } from './server/test/imports/fit-fixtures.ts';
const t = await createTestApp(); 
const start = new Date('2026-03-01T07:00:00Z');
const pts = Array.from({ length: 3601 }, (_, i) => ({ t: i, lat: 48.85 + i * 0.00003, lon: 2.35 + Math.sin(i / 100) * 0.001, ele: 50 + (i % 30), hr: 140 + (i % 20), cad: 85 }));
const gpx = gpxFile({ start, segments: [pts] });
const fit = fitFile([{ start, metres: 11000, timerSeconds: 3600, elapsedSeconds: 3600, records: pts.map((p) => ({ t: p.t, lat: p.lat, lon: p.lon, distance: p.t * 3, enhancedAltitude: p.ele, heartRate: p.hr, cadence: p.cad })) }]);
console.log('gpx bytes', gpx.length, 'fit bytes', fit.length);
const times: Record<string, number[]> = { fit: [], gpx: [] };
for (let round = 0; round < 6; round++) {
  for (const [kind, content] of [['fit', fit], ['gpx', gpx]] as const) {
    const { token } = await registerUser(t.app);
    const t0 = performance.now();
    const res = await importFiles(t.app, token, [{ name: `run.${kind}`, content }]);
    if (res.statusCode !== 201) throw new Error(res.body);
    times[kind]!.push(performance.now() - t0);
  }
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
console.log('fit', times.fit!.map(Math.round), 'gpx', times.gpx!.map(Math.round), 'ratio of medians', (med(times.gpx!) / med(times.fit!)).toFixed(2));
await t.close();
