/**
 * Webhook deliveries (CONTRACT.md §20) to real receivers on 127.0.0.1: signed bodies that never
 * change between tries, retries on the schedule's clock, a receiver that never answers holding
 * back nobody else, redirects not followed, refused addresses, the order of one webhook's
 * deliveries, and which changes of runs send what.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebhookCreatedSchema, WebhooksEnvelopeSchema, type Webhook } from '../../../core/webhooks.js';
import { startWebhookDeliveries, type WebhookDeliveries } from '../../features/webhooks/webhooks.service.js';
import {
  call,
  createEntry,
  createShoe,
  createTestApp,
  loginAdmin,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { gpxFile, importResult, meridianPoints } from '../imports/fixtures.js';
import { startReceiver, type Answer, type Arrival, type Receiver } from './receiver.js';

const RUN = { date: '2026-03-10', distance: 10, time: '00:50:00' };

let t: TestApp;
let deliveries: WebhookDeliveries;
const receivers: Receiver[] = [];

beforeAll(async () => {
  // WEBHOOK_PRIVATE=1: the receivers are on 127.0.0.1.
  t = await createTestApp({ webhookPrivate: true });
  deliveries = startWebhookDeliveries(t.app.appContext, t.app.log, { pollMs: 50, timeoutMs: 1500 });
});
afterAll(async () => {
  await deliveries.stop();
  await t.close();
});
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(answer?: (n: number, arrival: Arrival) => Answer): Promise<Receiver> {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

async function hook(runner: Account, to: Receiver, events?: string[], app = t.app): Promise<Webhook> {
  const res = await call(app, 'POST', '/api/v1/webhooks', {
    token: runner.token,
    body: { url: to.url, ...(events ? { events } : {}) },
  });
  expect(res.statusCode, res.body).toBe(201);
  const created = WebhookCreatedSchema.parse(res.json());
  to.secret = created.secret;
  return created.webhook;
}

async function webhooksOf(runner: Account, app = t.app): Promise<Webhook[]> {
  return WebhooksEnvelopeSchema.parse((await call(app, 'GET', '/api/v1/webhooks', { token: runner.token })).json())
    .webhooks;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(50);
  }
}

describe('a delivery', () => {
  it('is signed, carries the run as GET /entry/{id} answers it, and is retried with the same id and body', async () => {
    const to = await receiver((n) => (n < 2 ? 500 : 200));
    const runner = await registerUser(t.app);
    await hook(runner, to);
    const entry = await createEntry(t.app, runner.token, { ...RUN, title: 'Tempo «ü»' });

    const [first] = await to.waitFor(1);
    expect(first!.signed).toBe(true);
    expect(first!.contentType).toBe('application/json');
    expect(first!.event).toBe('run.created');
    expect(first!.deliveryId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const shown = (await call(t.app, 'GET', `/api/v1/entry/${entry.id}`, { token: runner.token })).json<{
      entry: object;
    }>();
    expect(first!.json).toEqual({
      event: 'run.created',
      at: expect.any(String),
      user_id: runner.user.id,
      entry: shown.entry,
    });
    expect(new Date(first!.json.at).toISOString()).toBe(first!.json.at);

    // The failed try shows as the last delivery; nothing more comes before a minute has passed.
    const failed = await until(async () => (await webhooksOf(runner))[0]!.last_delivery);
    expect(failed).toMatchObject({ status: 500 });
    await sleep(300);
    expect(to.arrivals).toHaveLength(1);

    t.clock.advance({ seconds: 61 });
    await to.waitFor(2);
    await until(async () => (await webhooksOf(runner))[0]!.last_delivery?.at !== failed.at);
    await sleep(300);
    expect(to.arrivals, 'the second retry waits 5 minutes').toHaveLength(2);
    t.clock.advance({ minutes: 5, seconds: 1 });
    await to.waitFor(3);

    expect(new Set(to.arrivals.map((a) => a.deliveryId)).size).toBe(1);
    expect(new Set(to.arrivals.map((a) => a.body)).size).toBe(1);
    expect(to.arrivals.every((a) => a.signed)).toBe(true);
    const done = await until(async () => {
      const last = (await webhooksOf(runner))[0]!.last_delivery;
      return last?.status === 200 ? last : null;
    });
    expect(done.error).toBeNull();
    t.clock.advance({ hours: 13 });
    await sleep(300);
    expect(to.arrivals, 'a delivered delivery is not sent again').toHaveLength(3);
  });

  it('is dropped after its fifth retry (1 min, 5 min, 30 min, 2 h, 12 h)', async () => {
    const to = await receiver(() => 503);
    const runner = await registerUser(t.app);
    await hook(runner, to);
    await createEntry(t.app, runner.token, RUN);
    await to.waitFor(1);
    for (const [i, wait] of [{ minutes: 1 }, { minutes: 5 }, { minutes: 30 }, { hours: 2 }, { hours: 12 }].entries()) {
      await until(async () => (await webhooksOf(runner))[0]!.last_delivery?.status === 503);
      await sleep(100);
      t.clock.advance({ ...wait, seconds: 1 });
      await to.waitFor(i + 2);
    }
    await sleep(200);
    t.clock.advance({ days: 2 });
    await sleep(400);
    expect(to.arrivals).toHaveLength(6);
    expect((await webhooksOf(runner))[0]!.last_delivery).toMatchObject({ status: 503 });
    // Dropped: gone from the outbox.
    expect(
      await t.app.appContext.db
        .selectFrom('webhook_deliveries')
        .select('delivery_id')
        .where('delivery_id', '=', to.arrivals[0]!.deliveryId)
        .execute(),
    ).toEqual([]);
  });

  it('times out on a receiver that never answers, while another receiver gets its deliveries promptly', async () => {
    const slow = await receiver(() => 'hang');
    const fast = await receiver();
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    await hook(a, slow);
    await hook(b, fast);
    await createEntry(t.app, a.token, RUN);
    await createEntry(t.app, a.token, { ...RUN, date: '2026-03-11' });
    await slow.waitFor(1);
    const started = Date.now();
    for (let i = 0; i < 3; i++) await createEntry(t.app, b.token, { ...RUN, date: `2026-03-0${i + 1}` });
    await fast.waitFor(3);
    expect(Date.now() - started, 'the hanging receiver holds back nobody else').toBeLessThan(1000);
    const last = await until(async () => (await webhooksOf(a))[0]!.last_delivery, 5000);
    expect(last).toMatchObject({ status: null, error: 'No answer within 2 seconds.' });
    // The timed-out delivery waits for its retry; the later one of the same webhook goes now.
    await slow.waitFor(2, 5000);
    expect(slow.arrivals[1]!.json.entry.date).toBe('2026-03-11');
  });

  it('does not follow a redirect', async () => {
    const target = await receiver();
    const redirecting = await receiver(() => ({ redirect: target.url }));
    const runner = await registerUser(t.app);
    await hook(runner, redirecting);
    await createEntry(t.app, runner.token, RUN);
    await redirecting.waitFor(1);
    const last = await until(async () => (await webhooksOf(runner))[0]!.last_delivery);
    expect(last).toMatchObject({ status: 302, error: 'Redirects are not followed.' });
    await sleep(300);
    expect(target.arrivals).toHaveLength(0);
  });
});

describe('the order of one webhook’s deliveries', () => {
  it('follows the changes, and a delivery waiting for its retry holds back none after it', async () => {
    const to = await receiver((n) => (n === 0 ? 500 : 200));
    const runner = await registerUser(t.app);
    await hook(runner, to);
    const first = await createEntry(t.app, runner.token, RUN);
    await to.waitFor(1);
    const second = await createEntry(t.app, runner.token, { ...RUN, date: '2026-03-11' });
    const put = await call(t.app, 'PUT', `/api/v1/entry/${second.id}`, {
      token: runner.token,
      body: { ...RUN, date: '2026-03-11', distance: 12 },
    });
    expect(put.statusCode).toBe(200);
    expect((await call(t.app, 'DELETE', `/api/v1/entry/${second.id}`, { token: runner.token })).statusCode).toBe(200);
    await to.waitFor(4);
    expect(to.arrivals.map((a) => [a.event, a.json.entry.id])).toEqual([
      ['run.created', first.id],
      ['run.created', second.id],
      ['run.updated', second.id],
      ['run.deleted', second.id],
    ]);
    expect(to.arrivals[2]!.json.entry.distance).toBe(12);
    expect(to.arrivals[3]!.json.entry).toEqual({ id: second.id, date: '2026-03-11' });
    t.clock.advance({ minutes: 2 });
    const [, , , , retried] = await to.waitFor(5);
    expect(retried!.deliveryId).toBe(to.arrivals[0]!.deliveryId);
  });
});

describe('what sends what', () => {
  it('sends only the events a webhook wants', async () => {
    const to = await receiver();
    const runner = await registerUser(t.app);
    await hook(runner, to, ['run.deleted']);
    const entry = await createEntry(t.app, runner.token, RUN);
    await call(t.app, 'DELETE', `/api/v1/entry/${entry.id}`, { token: runner.token });
    await to.waitFor(1);
    await sleep(300);
    expect(to.arrivals.map((a) => a.event)).toEqual(['run.deleted']);
  });

  it('sends run.created for each run of an import, run.updated for an admin’s edit and for a shoe’s deletion', async () => {
    const to = await receiver();
    const runner = await registerUser(t.app);
    await hook(runner, to);
    const shoe = await createShoe(t.app, runner.token, { name: 'Racer' });
    const csv = [
      'date,distance_km,time,title,notes,kind,effort,shoe',
      '2026-02-01,5.0,00:25:00,,,,,',
      '2026-02-02,6.0,00:30:00,,,,,',
    ];
    const result = await importResult(t.app, runner.token, [{ name: 'runs.csv', content: csv.join('\n') }]);
    expect(result.created).toBe(2);
    const created = await to.waitFor(2);
    expect(created.map((a) => [a.event, a.json.entry.date])).toEqual([
      ['run.created', '2026-02-01'],
      ['run.created', '2026-02-02'],
    ]);

    const entry = await createEntry(t.app, runner.token, { ...RUN, shoe_id: shoe });
    await to.waitFor(3);
    const admin = await loginAdmin(t.app);
    const edit = await call(t.app, 'PUT', `/api/v1/entry/${entry.id}`, {
      token: admin.token,
      body: { ...RUN, shoe_id: shoe, distance: 11 },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect((await call(t.app, 'DELETE', `/api/v1/shoes/${shoe}`, { token: runner.token })).statusCode).toBe(200);
    const all = await to.waitFor(5);
    expect(all[3]!.event).toBe('run.updated');
    expect(all[3]!.json.entry).toMatchObject({ id: entry.id, distance: 11, shoe_id: shoe });
    expect(all[4]!.event).toBe('run.updated');
    const now = (await call(t.app, 'GET', `/api/v1/entry/${entry.id}`, { token: runner.token })).json<{
      entry: object;
    }>();
    expect(all[4]!.json.entry).toEqual(now.entry);
    expect(all[4]!.json.entry.shoe_id).toBeNull();
    expect(all.every((a) => a.signed)).toBe(true);
  });

  it('sends run.updated when an import adds a track to a stored run', async () => {
    const to = await receiver();
    const runner = await registerUser(t.app);
    const gpx = gpxFile({ start: new Date('2026-03-05T07:00:00Z'), segments: [meridianPoints(121, 0.0005, 5)] });
    const file = { name: 'morning.gpx', content: gpx };
    const dry = await importResult(t.app, runner.token, [file], { dry_run: '1' });
    const planned = dry.rows[0]!.entry as { date: string; distance: number; time: string };
    const stored = await createEntry(t.app, runner.token, {
      date: planned.date,
      distance: planned.distance,
      time: planned.time,
    });
    await hook(runner, to);
    const result = await importResult(t.app, runner.token, [file]);
    expect(result.rows[0]!.status).toBe('track_added');
    const [arrival] = await to.waitFor(1);
    expect(arrival!.event).toBe('run.updated');
    expect(arrival!.json.entry).toMatchObject({ id: stored.id, has_track: true });
    const now = (await call(t.app, 'GET', `/api/v1/entry/${stored.id}`, { token: runner.token })).json<{
      entry: object;
    }>();
    expect(arrival!.json.entry).toEqual(now.entry);
  });

  it('sends nothing when a user is deleted, and removes their webhooks', async () => {
    const to = await receiver((n) => (n === 0 ? 500 : 200));
    const runner = await registerUser(t.app);
    await hook(runner, to);
    await createEntry(t.app, runner.token, RUN);
    await to.waitFor(1);
    await createEntry(t.app, runner.token, { ...RUN, date: '2026-03-12' });
    await to.waitFor(2);
    const admin = await loginAdmin(t.app);
    expect((await call(t.app, 'DELETE', `/api/v1/user/${runner.user.id}`, { token: admin.token })).statusCode).toBe(
      200,
    );
    const left = await t.app.appContext.db
      .selectFrom('webhooks')
      .select('id')
      .where('user_id', '=', runner.user.id)
      .execute();
    expect(left).toEqual([]);
    t.clock.advance({ hours: 1 });
    await sleep(400);
    expect(to.arrivals.map((a) => a.event)).toEqual(['run.created', 'run.created']);
  });
});

describe('refused addresses without WEBHOOK_PRIVATE', () => {
  let closed: TestApp;
  let sender: WebhookDeliveries;
  beforeAll(async () => {
    closed = await createTestApp();
    sender = startWebhookDeliveries(closed.app.appContext, closed.app.log, { pollMs: 50, timeoutMs: 1500 });
  });
  afterAll(async () => {
    await sender.stop();
    await closed.close();
  });

  it('refuses a literal address when saved, and a name that resolves to one when sending', async () => {
    const to = await receiver();
    const runner = await registerUser(closed.app);
    const literal = await call(closed.app, 'POST', '/api/v1/webhooks', { token: runner.token, body: { url: to.url } });
    expect(literal.statusCode).toBe(422);
    const byName = await call(closed.app, 'POST', '/api/v1/webhooks', {
      token: runner.token,
      body: { url: `http://localhost:${to.port}/hook` },
    });
    expect(byName.statusCode, byName.body).toBe(201);
    await createEntry(closed.app, runner.token, RUN);
    const last = await until(async () => (await webhooksOf(runner, closed.app))[0]!.last_delivery);
    expect(last).toEqual({ at: expect.any(String), status: null, error: 'Address not allowed.' });
    await sleep(200);
    expect(to.arrivals).toHaveLength(0);
  });
});
