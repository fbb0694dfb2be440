import { createTestApp, registerUser } from './server/test/helpers.ts';
import { importFiles } from './server/test/imports/fixtures.ts';
const t = await createTestApp({ sqliteFile: true }); const { token } = await registerUser(t.app);
const N = Number(process.argv[2] ?? 200000);
const lines = ['date,distance_km,time,title,notes,kind,effort,shoe'];
for (let i = 0; i < N; i++) { const d = new Date(Date.UTC(2000,0,1) + (i % 9000) * 86400000).toISOString().slice(0,10); lines.push(`${d},${(5 + (i % 97)/10).toFixed(1)},00:${String(20 + (i % 39)).padStart(2,'0')}:00,Run ${i},,,,`); }
const t0 = performance.now();
const res = await importFiles(t.app, token, [{ name: 'runs.csv', content: lines.join('\n') + '\n' }]);
console.log(res.statusCode, performance.now() - t0, res.body.slice(0, 100));
await t.close();
