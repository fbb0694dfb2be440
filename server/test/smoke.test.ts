import { it, expect } from 'vitest';
import { createTestApp, registerUser, call, loginAdmin, makeManager, createEntry } from './helpers.js';
it('smoke', async () => {
  const t = await createTestApp();
  const a = await registerUser(t.app, { timezone: 'Pacific/Kiritimati' });
  console.log(a);
  const adm = await loginAdmin(t.app);
  console.log(await makeManager(t.app, a.user, adm.token));
  console.log(await createEntry(t.app, a.token, { date: '2026-03-19', distance: 42.195, time: '03:30:00' }));
  const r = await call(t.app, 'GET', '/api/v1/user', { token: adm.token, query: { per_page: 1 } });
  console.log(r.statusCode, r.body);
  const r2 = await call(t.app, 'GET', '/api/v1/nope');
  console.log(r2.statusCode, r2.body, r2.headers);
  await t.close();
  expect(1).toBe(1);
});
