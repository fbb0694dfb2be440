/**
 * Shoes and goals for the bench's runners (CONTRACT.md §11), created through the API once
 * they are signed in, so that GET /shoes and GET /goals measure real work: two shoes (one the
 * default) and a weekly, a monthly and a yearly goal, whose progress reads runner_days.
 */
const SHOES = [
  { name: 'Daily trainer', brand: 'Bench', limit_km: 800, is_default: true },
  { name: 'Race flats', brand: 'Bench', limit_km: 400 },
];
const GOALS = [
  { period: 'week', metric: 'distance', target: 40 },
  { period: 'month', metric: 'time', target: 20 * 3600 },
  { period: 'year', metric: 'runs', target: 200 },
];

async function send(url: string, token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} failed: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown[]>>;
}

/** Gives a runner their shoes and goals, unless they have some already (a kept database). */
export async function equipRunner(url: string, token: string): Promise<void> {
  if (((await send(url, token, 'GET', '/shoes')).shoes ?? []).length === 0) {
    for (const shoe of SHOES) await send(url, token, 'POST', '/shoes', shoe);
  }
  if (((await send(url, token, 'GET', '/goals')).goals ?? []).length === 0) {
    for (const goal of GOALS) await send(url, token, 'POST', '/goals', goal);
  }
}
