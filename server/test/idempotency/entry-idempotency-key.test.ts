/**
 * The `Idempotency-Key` of `POST /entry` (CONTRACT.md §20, decision 047), on SQLite and on
 * PostgreSQL (TEST_DATABASE_URL): a repeat by the same user within 7 days answers the first
 * answer again (status and body, byte for byte) and stores nothing; other users and other keys
 * are their own; a refused request keeps nothing; a bad key is a 422; after 7 days the key is new
 * and the purge drops it; and requests with one key racing each other store one run.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OwnEntriesEnvelopeSchema } from '../../../core/schemas.js';
import { purgeIdempotencyKeys } from '../../features/entries/entries.service.js';
import { call, createTestApp, expectValidation, registerUser, type Account, type TestApp } from '../helpers.js';
import { together } from '../race.js';

const RUN = { date: '2026-03-17', distance: 10.5, time: '00:52:30' };
const KEY_MESSAGE = 'The Idempotency-Key header must be 1 to 100 characters.';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function post(runner: Account, key: string | undefined, body: object = RUN, headers: Record<string, string> = {}) {
  return call(t.app, 'POST', '/api/v1/entry', {
    token: runner.token,
    body,
    headers: key === undefined ? headers : { ...headers, 'idempotency-key': key },
  });
}

async function runsOf(runner: Account): Promise<number> {
  const res = await call(t.app, 'GET', '/api/v1/entry', { token: runner.token, query: { per_page: 100 } });
  expect(res.statusCode, res.body).toBe(200);
  return OwnEntriesEnvelopeSchema.parse(res.json()).entries.total;
}

async function keptKeys(): Promise<number> {
  const row = await t.app.appContext.db
    .selectFrom('entry_idempotency_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const created = (res: LightMyRequestResponse) => {
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ entry: { id: number } }>().entry.id;
};

describe('a repeated Idempotency-Key', () => {
  it('answers the first answer again, byte for byte, and stores nothing', async () => {
    const runner = await registerUser(t.app);
    const first = await post(runner, 'run-7f3a');
    const id = created(first);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    t.clock.advance({ hours: 3 });
    const again = await post(runner, 'run-7f3a');
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await runsOf(runner)).toBe(1);

    // The first answer, even after the run changed, and whatever the repeat's body says.
    const edit = await call(t.app, 'PUT', `/api/v1/entry/${id}`, {
      token: runner.token,
      body: { ...RUN, distance: 11 },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const third = await post(runner, 'run-7f3a', { ...RUN, distance: 5 });
    expect(third.body).toBe(first.body);
    expect(await runsOf(runner)).toBe(1);
  });

  it('belongs to its user: another runner with the same key gets a run of their own', async () => {
    const a = await registerUser(t.app);
    const b = await registerUser(t.app);
    const runA = created(await post(a, 'shared-key'));
    const runB = created(await post(b, 'shared-key'));
    expect(runB).not.toBe(runA);
    expect(await runsOf(a)).toBe(1);
    expect(await runsOf(b)).toBe(1);
  });

  it('is one key: other keys, and requests without one, each store a run', async () => {
    const runner = await registerUser(t.app);
    created(await post(runner, 'one'));
    created(await post(runner, 'two'));
    created(await post(runner, 'One'));
    created(await post(runner, undefined));
    created(await post(runner, undefined));
    expect(await runsOf(runner)).toBe(5);
  });

  it('keeps nothing of a refused request: the same key sent again with the run corrected creates it', async () => {
    const runner = await registerUser(t.app);
    expectValidation(await post(runner, 'fix-me', { ...RUN, date: '2026-03-19' }), 'date');
    expectValidation(await post(runner, 'fix-me', { ...RUN, distance: 0 }), 'distance');
    expect(await runsOf(runner)).toBe(0);
    created(await post(runner, 'fix-me'));
    expect(await runsOf(runner)).toBe(1);
  });

  it('answers anew after 7 days, and the purge drops keys older than that', async () => {
    const runner = await registerUser(t.app);
    const first = created(await post(runner, 'weekly'));
    t.clock.advance({ days: 7, seconds: -1 });
    expect(created(await post(runner, 'weekly'))).toBe(first);
    t.clock.advance({ seconds: 2 });
    const later = created(await post(runner, 'weekly'));
    expect(later).not.toBe(first);
    expect(await runsOf(runner)).toBe(2);
    // The key now holds the later answer.
    expect(created(await post(runner, 'weekly'))).toBe(later);

    const before = await keptKeys();
    expect(before).toBeGreaterThan(0);
    t.clock.advance({ days: 7, seconds: 1 });
    expect(await purgeIdempotencyKeys(t.app.appContext)).toBe(before);
    expect(await keptKeys()).toBe(0);
  });
});

describe('a bad Idempotency-Key', () => {
  it('is a 422 on idempotency_key when empty or longer than 100 characters, in the request’s language', async () => {
    const runner = await registerUser(t.app);
    expectValidation(await post(runner, ''), 'idempotency_key', KEY_MESSAGE);
    expectValidation(await post(runner, 'k'.repeat(101)), 'idempotency_key', KEY_MESSAGE);
    expectValidation(
      await post(runner, 'k'.repeat(101), RUN, { 'accept-language': 'de' }),
      'idempotency_key',
      'Der Header Idempotency-Key muss 1 bis 100 Zeichen lang sein.',
    );
    expect(await runsOf(runner)).toBe(0);
    created(await post(runner, 'k'.repeat(100)));
    created(await post(runner, 'k'));
    expect(await runsOf(runner)).toBe(2);
  });
});

describe('requests with one key at once', () => {
  it('store one run, and every one of them answers it', async () => {
    const runner = await registerUser(t.app);
    for (let trial = 0; trial < 6; trial++) {
      const key = `race-${trial}`;
      const answers = await together(Array.from({ length: 5 }, () => () => post(runner, key)));
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect(answers.filter((a) => a.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
      expect(await runsOf(runner)).toBe(trial + 1);
    }
  });

  it('of different runners do not wait for each other’s key', async () => {
    const runners = await Promise.all([registerUser(t.app), registerUser(t.app), registerUser(t.app)]);
    const answers = await together(runners.map((runner) => () => post(runner, 'same')));
    expect(new Set(answers.map(created)).size).toBe(3);
  });
});
