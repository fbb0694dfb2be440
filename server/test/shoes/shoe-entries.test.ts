/** GET /api/v1/shoes/{id}/entries (CONTRACT.md §11): a shoe's runs, newest first, its own runner's only. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entry } from '../../../core/schemas.js';
import { NOT_FOUND, call, createTestApp, expectError, loginAdmin, registerUser, type TestApp } from '../helpers.js';
import { shoeCalls } from '../shoe-calls.js';
import { keysOf } from '../wire-keys.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const { addShoe, addRun } = shoeCalls(() => t.app);

describe('GET /api/v1/shoes/{id}/entries', () => {
  it("lists the shoe's runs newest first, a page at a time, with the shoe's run count as total", async () => {
    const runner = await registerUser(t.app);
    const shoe = await addShoe(runner, { name: 'Racer' });
    const other = await addShoe(runner, { name: 'Trail' });
    const dates = ['2026-03-01', '2026-03-05', '2026-02-20', '2026-03-05', '2026-01-02'];
    const runs: Entry[] = [];
    for (const date of dates) runs.push(await addRun(runner, { date, distance: 5, shoe_id: shoe.id }));
    await addRun(runner, { date: '2026-03-06', distance: 7, shoe_id: other.id });
    await addRun(runner, { date: '2026-03-07', distance: 7, shoe_id: null });
    const newestFirst = [...runs]
      .sort((a, b) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1))
      .map((run) => run.id);

    const first = await call(t.app, 'GET', `/api/v1/shoes/${shoe.id}/entries`, {
      token: runner.token,
      query: { per_page: 3 },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(keysOf(first.json())).toEqual(['entries']);
    const page1 = first.json().entries;
    expect(page1).toMatchObject({ total: 5, last_page: 2, current_page: 1, per_page: 3 });
    const second = (
      await call(t.app, 'GET', `/api/v1/shoes/${shoe.id}/entries`, {
        token: runner.token,
        query: { per_page: 3, page: 2 },
      })
    ).json().entries;
    expect([...page1.data, ...second.data].map((run: Entry) => run.id)).toEqual(newestFirst);
    expect(page1.data.every((run: Entry) => run.shoe_id === shoe.id)).toBe(true);
  });

  it("is a 404 for another runner's shoe and for an unknown one", async () => {
    const runner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const theirs = await addShoe(other, { name: 'Theirs' });
    await addRun(other, { distance: 5, shoe_id: theirs.id });
    for (const id of [theirs.id, 2_000_000_000]) {
      expectError(
        await call(t.app, 'GET', `/api/v1/shoes/${id}/entries`, { token: runner.token }),
        404,
        NOT_FOUND.message,
      );
    }
    const admin = await loginAdmin(t.app);
    expectError(
      await call(t.app, 'GET', `/api/v1/shoes/${theirs.id}/entries`, { token: admin.token }),
      404,
      NOT_FOUND.message,
    );
  });
});
