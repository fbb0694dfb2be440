import { buildApp } from './server/app.js';
import { loadConfig } from './server/config.js';
const app = await buildApp({ ...loadConfig({ DATABASE_URL: 'sqlite::memory:', WEB_ROOT: '' }), logLevel: 'error', adminPassword: 'admin-password-1', verifyResponses: true });
const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'admin@example.com', password: 'admin-password-1' } });
const token = login.json().access_token;
const h = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
for (const [m, u, p] of [
  ['POST', '/api/v1/auth/register', '{"name":"a","email":"a@b.cd","password":"12345678","password_confirmation":12345678}'],
  ['POST', '/api/v1/entry/1', '{"_method":["DELETE"]}'],
  ['POST', '/api/v1/entry', '{"__proto__":{"x":1},"date":"2026-01-01"}'],
  ['POST', '/api/v1/entry', '{"date":"2026-01-01","distance":"0.0000000001","time":"00:10:00"}'],
  ['POST', '/api/v1/entry', '{"date":"2026-01-01","distance":5e-324,"time":"00:10:00"}'],
  ['PUT', '/api/v1/user/1', '{"name":"lone \\ud800 surrogate","email":"admin@example.com"}'],
  ['PUT', '/api/v1/user/1', '{"name":"Admin","email":"admin@example.com","timezone":null}'],
  ['PUT', '/api/v1/user/1', '{"name":"Admin","email":"admin@example.com","timezone":"europe/PARIS"}'],
  ['PUT', '/api/v1/user/1', '{"name":"Admin","email":"x@y.z<script>"}'],
  ['POST', '/api/v1/entry', '{"date":"2026-01-01","distance":5,"time":"00:30:00","title":["x"]}'],
]) {
  const r = await app.inject({ method: m as 'POST', url: u as string, headers: h, payload: p as string });
  console.log(r.statusCode, r.body.slice(0, 200));
}
await app.close();
