/**
 * Shoes (CONTRACT.md §11, §8 shoe_id): own only, one default (also under races), retiring,
 * partial updates, distance and runs following every write of a run, deletion keeping runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Shoe } from '../../../core/shoes.js';
import {
  NOT_FOUND,
  call,
  createTestApp,
  expectError,
  expectValidation,
  loginAdmin,
  registerUser,
  type TestApp,
} from '../helpers.js';
import { shoeCalls } from '../shoe-calls.js';
import { keysOf } from '../wire-keys.js';

const SHOE_KEYS = [
  'brand',
  'created_at',
  'distance',
  'id',
  'is_default',
  'limit_km',
  'name',
  'over_limit',
  'retired',
  'runs',
  'start_km',
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const { addShoe, shoesOf, shoeOf, putShoe, addRun } = shoeCalls(() => t.app);

const defaults = (shoes: Shoe[]) => shoes.filter((shoe) => shoe.is_default).map((shoe) => shoe.id);

describe('POST and GET /api/v1/shoes', () => {
  it('creates a shoe with the contract shape and its defaults, listed only to its owner', async () => {
    const runner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const res = await call(t.app, 'POST', '/api/v1/shoes', { token: runner.token, body: { name: '  Pegasus 40 ' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(keysOf(res.json())).toEqual(['shoe']);
    const shoe = res.json().shoe;
    expect(keysOf(shoe)).toEqual(SHOE_KEYS);
    expect(shoe).toMatchObject({
      name: 'Pegasus 40',
      brand: null,
      limit_km: 700,
      retired: false,
      is_default: false,
      distance: 0,
      runs: 0,
      over_limit: false,
    });
    expect((await shoesOf(runner)).map((s) => s.id)).toEqual([shoe.id]);
    expect(await shoesOf(other)).toEqual([]);
  });

  it('accepts form-encoded bodies', async () => {
    const runner = await registerUser(t.app);
    const res = await call(t.app, 'POST', '/api/v1/shoes', {
      token: runner.token,
      form: { name: 'Clifton', brand: 'Hoka', limit_km: '800.5', is_default: '1' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().shoe).toMatchObject({ brand: 'Hoka', limit_km: 800.5, is_default: true });
  });

  it.each([
    [{}, 'name', 'The name field is required.'],
    [{ name: '   ' }, 'name', 'The name field is required.'],
    [{ name: 'x'.repeat(101) }, 'name', undefined],
    [{ name: 'A', brand: 'b'.repeat(101) }, 'brand', undefined],
    [{ name: 'A', limit_km: 0 }, 'limit_km', 'The limit_km must be greater than 0.'],
    [{ name: 'A', limit_km: 'far' }, 'limit_km', undefined],
    [{ name: 'A', retired: 'maybe' }, 'retired', undefined],
    [{ name: 'A', retired: true, is_default: true }, 'is_default', 'A retired shoe cannot be the default shoe.'],
  ])('refuses %j with a 422 on %s', async (body, field, message) => {
    const runner = await registerUser(t.app);
    expectValidation(await call(t.app, 'POST', '/api/v1/shoes', { token: runner.token, body }), field, message);
    expect(await shoesOf(runner)).toEqual([]);
  });

  it('needs a signed-in runner', async () => {
    expectError(await call(t.app, 'GET', '/api/v1/shoes'), 401);
    expectError(await call(t.app, 'POST', '/api/v1/shoes', { body: { name: 'A' } }), 401);
  });
});

describe('the default shoe', () => {
  it('is at most one: a new default or a PUT is_default unsets the other', async () => {
    const runner = await registerUser(t.app);
    const a = await addShoe(runner, { name: 'A', is_default: true });
    const b = await addShoe(runner, { name: 'B', is_default: true });
    expect(defaults(await shoesOf(runner))).toEqual([b.id]);
    const c = await addShoe(runner, { name: 'C' });
    const res = await putShoe(runner, a.id, { is_default: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().shoe.is_default).toBe(true);
    expect(defaults(await shoesOf(runner))).toEqual([a.id]);
    // is_default false only unsets its own shoe.
    await putShoe(runner, c.id, { is_default: false });
    expect(defaults(await shoesOf(runner))).toEqual([a.id]);
  });

  it("is never another runner's business: one default each", async () => {
    const one = await registerUser(t.app);
    const two = await registerUser(t.app);
    const a = await addShoe(one, { name: 'A', is_default: true });
    const b = await addShoe(two, { name: 'B', is_default: true });
    expect(defaults(await shoesOf(one))).toEqual([a.id]);
    expect(defaults(await shoesOf(two))).toEqual([b.id]);
  });

  it('stays one when many requests make different shoes default at once', async () => {
    const runner = await registerUser(t.app);
    const shoes = [];
    for (let i = 0; i < 8; i++) shoes.push(await addShoe(runner, { name: `Shoe ${i}` }));
    const results = await Promise.all(shoes.map((shoe) => putShoe(runner, shoe.id, { is_default: true })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(defaults(await shoesOf(runner))).toHaveLength(1);
    const created = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(t.app, 'POST', '/api/v1/shoes', { token: runner.token, body: { name: `New ${i}`, is_default: true } }),
      ),
    );
    expect(created.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    const after = defaults(await shoesOf(runner));
    expect(after).toHaveLength(1);
    expect(created.map((r) => r.json().shoe.id)).toContain(after[0]);
  });

  it('goes with retirement, and a retired shoe cannot become it', async () => {
    const runner = await registerUser(t.app);
    const a = await addShoe(runner, { name: 'A', is_default: true });
    const res = await putShoe(runner, a.id, { retired: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().shoe).toMatchObject({ retired: true, is_default: false });
    expectValidation(
      await putShoe(runner, a.id, { is_default: true }),
      'is_default',
      'A retired shoe cannot be the default shoe.',
    );
    expect(await shoeOf(runner, a.id)).toMatchObject({ retired: true, is_default: false });
    // Back in use, it may be the default again.
    expect((await putShoe(runner, a.id, { retired: false, is_default: true })).json().shoe).toMatchObject({
      retired: false,
      is_default: true,
    });
  });
});

describe('PUT and DELETE /api/v1/shoes/{id}', () => {
  it('changes only the fields it is given; null clears the brand', async () => {
    const runner = await registerUser(t.app);
    const shoe = await addShoe(runner, { name: 'Ghost', brand: 'Brooks', limit_km: 650, is_default: true });
    let res = await putShoe(runner, shoe.id, { limit_km: 900 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().shoe).toEqual({ ...shoe, limit_km: 900 });
    res = await putShoe(runner, shoe.id, { name: 'Ghost 16' });
    expect(res.json().shoe).toEqual({ ...shoe, limit_km: 900, name: 'Ghost 16' });
    res = await putShoe(runner, shoe.id, { brand: null });
    expect(res.json().shoe).toEqual({ ...shoe, limit_km: 900, name: 'Ghost 16', brand: null });
    expectValidation(await putShoe(runner, shoe.id, { name: '' }), 'name');
    expect((await shoeOf(runner, shoe.id))?.name).toBe('Ghost 16');
  });

  it('works through POST with _method, as the original client sends changes', async () => {
    const runner = await registerUser(t.app);
    const shoe = await addShoe(runner, { name: 'A' });
    const put = await call(t.app, 'POST', `/api/v1/shoes/${shoe.id}`, {
      token: runner.token,
      body: { _method: 'PUT', retired: true },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().shoe.retired).toBe(true);
    const del = await call(t.app, 'POST', `/api/v1/shoes/${shoe.id}`, {
      token: runner.token,
      body: { _method: 'delete' },
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(await shoesOf(runner)).toEqual([]);
  });

  it("answers 404 for another runner's shoe, even to an admin, and never changes it", async () => {
    const owner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const admin = await loginAdmin(t.app);
    const shoe = await addShoe(owner, { name: 'Mine', is_default: true });
    for (const intruder of [other, admin]) {
      expect((await putShoe(intruder, shoe.id, { name: 'Theirs', retired: true })).json()).toEqual(NOT_FOUND);
      expectError(await putShoe(intruder, shoe.id, { name: 'Theirs' }), 404);
      expectError(await call(t.app, 'DELETE', `/api/v1/shoes/${shoe.id}`, { token: intruder.token }), 404);
      expect(await shoesOf(intruder)).not.toContainEqual(expect.objectContaining({ id: shoe.id }));
    }
    expect(await shoeOf(owner, shoe.id)).toEqual(shoe);
    expectError(await putShoe(owner, 2_000_000_000, { name: 'x' }), 404);
    expectError(await call(t.app, 'DELETE', '/api/v1/shoes/abc', { token: owner.token }), 404);
  });

  it('deleting a shoe keeps its runs, without a shoe', async () => {
    const runner = await registerUser(t.app);
    const shoe = await addShoe(runner, { name: 'Doomed' });
    const keep = await addShoe(runner, { name: 'Kept' });
    const run = await addRun(runner, { distance: 10, shoe_id: shoe.id });
    const other = await addRun(runner, { distance: 5, shoe_id: keep.id });
    const res = await call(t.app, 'DELETE', `/api/v1/shoes/${shoe.id}`, { token: runner.token });
    expect(res.statusCode, res.body).toBe(200);
    const after = await call(t.app, 'GET', `/api/v1/entry/${run.id}`, { token: runner.token });
    expect(after.statusCode).toBe(200);
    expect(after.json().entry).toMatchObject({ id: run.id, distance: 10, shoe_id: null });
    expect((await call(t.app, 'GET', `/api/v1/entry/${other.id}`, { token: runner.token })).json().entry.shoe_id).toBe(
      keep.id,
    );
    expect(await shoeOf(runner, keep.id)).toMatchObject({ distance: 5, runs: 1 });
    expectError(await call(t.app, 'DELETE', `/api/v1/shoes/${shoe.id}`, { token: runner.token }), 404);
  });
});

describe("a shoe's distance and runs", () => {
  it('follow every create, update and delete of a run, including a move to another shoe', async () => {
    const runner = await registerUser(t.app);
    const a = await addShoe(runner, { name: 'A', limit_km: 20 });
    const b = await addShoe(runner, { name: 'B' });
    const one = await addRun(runner, { distance: 12.345, shoe_id: a.id });
    await addRun(runner, { distance: 7.5, shoe_id: a.id });
    await addRun(runner, { distance: 3 });
    expect(await shoeOf(runner, a.id)).toMatchObject({ distance: 19.845, runs: 2, over_limit: false });

    const update = (id: number, body: Record<string, unknown>) =>
      call(t.app, 'PUT', `/api/v1/entry/${id}`, {
        token: runner.token,
        body: { date: '2026-03-11', distance: 12.345, time: '01:00:00', ...body },
      });
    expect((await update(one.id, { distance: 13 })).statusCode).toBe(200);
    expect(await shoeOf(runner, a.id)).toMatchObject({ distance: 20.5, runs: 2, over_limit: true });

    // Omitting shoe_id keeps the shoe (the original client never sends it).
    expect((await update(one.id, { distance: 14 })).json().entry.shoe_id).toBe(a.id);
    expect(await shoeOf(runner, a.id)).toMatchObject({ distance: 21.5, runs: 2 });

    expect((await update(one.id, { distance: 14, shoe_id: b.id })).statusCode).toBe(200);
    expect(await shoeOf(runner, a.id)).toMatchObject({ distance: 7.5, runs: 1, over_limit: false });
    expect(await shoeOf(runner, b.id)).toMatchObject({ distance: 14, runs: 1 });

    expect((await update(one.id, { distance: 14, shoe_id: null })).statusCode).toBe(200);
    expect(await shoeOf(runner, b.id)).toMatchObject({ distance: 0, runs: 0 });

    const last = await addRun(runner, { distance: 2.25, shoe_id: b.id });
    expect(await shoeOf(runner, b.id)).toMatchObject({ distance: 2.25, runs: 1 });
    expect((await call(t.app, 'DELETE', `/api/v1/entry/${last.id}`, { token: runner.token })).statusCode).toBe(200);
    expect(await shoeOf(runner, b.id)).toMatchObject({ distance: 0, runs: 0 });
  });

  it('a new run without shoe_id gets the default shoe; with null, none', async () => {
    const runner = await registerUser(t.app);
    const shoe = await addShoe(runner, { name: 'Daily', is_default: true });
    expect((await addRun(runner, { distance: 4 })).shoe_id).toBe(shoe.id);
    expect((await addRun(runner, { distance: 4, shoe_id: null })).shoe_id).toBeNull();
    expect(await shoeOf(runner, shoe.id)).toMatchObject({ distance: 4, runs: 1 });
  });
});

describe('shoe_id on runs (§8)', () => {
  it('refuses a retired shoe for a new run or a change of shoe, but a run keeps the retired shoe it has', async () => {
    const runner = await registerUser(t.app);
    const shoe = await addShoe(runner, { name: 'Old' });
    const run = await addRun(runner, { distance: 6, shoe_id: shoe.id });
    await putShoe(runner, shoe.id, { retired: true });

    const created = await call(t.app, 'POST', '/api/v1/entry', {
      token: runner.token,
      body: { date: '2026-03-12', distance: 5, time: '00:30:00', shoe_id: shoe.id },
    });
    expectValidation(created, 'shoe_id', 'The selected shoe is invalid.');

    const body = { date: '2026-03-10', distance: 6.5, time: '01:00:00' };
    const kept = await call(t.app, 'PUT', `/api/v1/entry/${run.id}`, {
      token: runner.token,
      body: { ...body, shoe_id: shoe.id },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().entry.shoe_id).toBe(shoe.id);
    expect(await shoeOf(runner, shoe.id)).toMatchObject({ distance: 6.5, runs: 1 });

    const other = await addRun(runner, { distance: 3 });
    expectValidation(
      await call(t.app, 'PUT', `/api/v1/entry/${other.id}`, {
        token: runner.token,
        body: { ...body, shoe_id: shoe.id },
      }),
      'shoe_id',
    );
    expect(await shoeOf(runner, shoe.id)).toMatchObject({ runs: 1 });
  });

  it("refuses another runner's shoe and an unknown one", async () => {
    const runner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const theirs = await addShoe(other, { name: 'Theirs' });
    for (const shoe_id of [theirs.id, 2_000_000_000]) {
      expectValidation(
        await call(t.app, 'POST', '/api/v1/entry', {
          token: runner.token,
          body: { date: '2026-03-12', distance: 5, time: '00:30:00', shoe_id },
        }),
        'shoe_id',
        'The selected shoe is invalid.',
      );
    }
    expect(await shoeOf(other, theirs.id)).toMatchObject({ distance: 0, runs: 0 });
  });
});

describe('start_km (§18)', () => {
  it('is 0 by default and counts in the distance and against the limit', async () => {
    const runner = await registerUser(t.app);
    expect((await addShoe(runner, { name: 'New pair' })).start_km).toBe(0);
    const worn = await addShoe(runner, { name: 'Worn', limit_km: 500, start_km: 498.5 });
    expect(worn).toMatchObject({ start_km: 498.5, distance: 498.5, runs: 0, over_limit: false });
    await addRun(runner, { distance: 1.5, shoe_id: worn.id });
    expect(await shoeOf(runner, worn.id)).toMatchObject({ start_km: 498.5, distance: 500, runs: 1, over_limit: false });
    await addRun(runner, { distance: 0.001, shoe_id: worn.id });
    expect(await shoeOf(runner, worn.id)).toMatchObject({ distance: 500.001, runs: 2, over_limit: true });
  });

  it('is changed by an update, alone or with other fields, and kept when absent', async () => {
    const runner = await registerUser(t.app);
    const shoe = await addShoe(runner, { name: 'Clifton', start_km: 100 });
    await addRun(runner, { distance: 10, shoe_id: shoe.id });
    const changed = await putShoe(runner, shoe.id, { start_km: '250.125' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().shoe).toMatchObject({ start_km: 250.125, distance: 260.125 });
    const renamed = await putShoe(runner, shoe.id, { name: 'Clifton 9' });
    expect(renamed.json().shoe).toMatchObject({ name: 'Clifton 9', start_km: 250.125, distance: 260.125 });
    const zero = await putShoe(runner, shoe.id, { start_km: 0 });
    expect(zero.json().shoe).toMatchObject({ start_km: 0, distance: 10 });
  });

  it.each([
    [-1, 'The start_km must be at least 0.'],
    [10_000.001, 'The start_km must not be greater than 10000.'],
    [1.0005, 'The start_km must have at most 3 decimals.'],
    ['many', 'The start_km must be a number.'],
  ])('refuses start_km %j with 422', async (start_km, message) => {
    const runner = await registerUser(t.app);
    expectValidation(
      await call(t.app, 'POST', '/api/v1/shoes', { token: runner.token, body: { name: 'A', start_km } }),
      'start_km',
      message,
    );
    const shoe = await addShoe(runner, { name: 'B' });
    expectValidation(await putShoe(runner, shoe.id, { start_km }), 'start_km', message);
    expect(await shoeOf(runner, shoe.id)).toMatchObject({ start_km: 0 });
  });

  it('accepts the largest start_km', async () => {
    const runner = await registerUser(t.app);
    expect(await addShoe(runner, { name: 'Legend', start_km: 10_000 })).toMatchObject({ start_km: 10_000 });
  });
});
