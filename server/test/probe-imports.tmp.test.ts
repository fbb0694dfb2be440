import { it } from 'vitest';
import { createTestApp, registerUser } from './helpers.js';
import { importFiles } from './imports/fixtures.js';
it('probe', async () => {
  const t = await createTestApp({ logLevel: 'error' });
  const { token } = await registerUser(t.app);
  const res = await importFiles(t.app, token, [{ name: 'a.csv', content: 'date,distance_km,time\n2024-01-01,5,00:25:00\n' }]);
  console.log(res.statusCode, res.body.slice(0, 500));
  await t.close();
});
