/**
 * What keeps answers independent of the data's size stays correct: the tallies follow every
 * write (a runner's deletion included; a bulk delete is put right by the repair command), pages
 * equal plain ORDER BY / LIMIT / OFFSET pages, the search index finds exactly the substring
 * matches, and no repository query plan reads a whole table. (Speed itself is measured by
 * npm run bench.) Runs on SQLite, or on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainRepositoryQueries } from '../../../bench/lib/plans.js';
import { maintainedTotals, recountedTotals } from '../../../scripts/seed/consistency.js';
import { seedDatabase } from '../../../scripts/seed/seed.js';
import type { Entry } from '../../../core/schemas.js';
import { loadConfig, type Config } from '../../config.js';
import { contextOf as appContextOf, type AppContext } from '../../context.js';
import { openDatabase, type Db } from '../../db/connection.js';
import * as entries from '../../features/entries/entries.repository.js';
import * as everyone from '../../features/entries/everyone.repository.js';
import * as entriesService from '../../features/entries/entries.service.js';
import * as users from '../../features/users/users.repository.js';
import * as usersService from '../../features/users/users.service.js';
import {
  testDatabase as freshDatabase,
  type ScratchDatabase as FreshDatabase,
} from '../../../scripts/support/scratch-database.js';

const NOW = new Date('2026-03-18T12:00:00.000Z');

let target: FreshDatabase;
let config: Config;
let db: Db;

beforeAll(async () => {
  target = await freshDatabase('scale');
  config = {
    ...loadConfig({ DATABASE_URL: target.url, WEB_ROOT: '' }),
    adminEmail: 'admin@example.com',
    adminPassword: 'admin-password-1',
    logLevel: 'silent',
    now: () => NOW,
  };
  await seedDatabase(config, { users: 60, entries: 6000, now: NOW });
  db = openDatabase(config.databaseUrl, { poolSize: 2 });
});

afterAll(async () => {
  await db?.close();
  await target?.drop();
});

const nowIso = NOW.toISOString();
const contextOf = (): AppContext => appContextOf(db.kysely, config);

async function expectTotalsExact() {
  expect(await maintainedTotals(db.kysely)).toEqual(await recountedTotals(db.kysely));
}

async function someUsers(n: number) {
  const rows = await db.kysely
    .selectFrom('users')
    .select(['id', 'entry_count'])
    .where('role', '=', 'user')
    .orderBy('entry_count', 'desc')
    .limit(n)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), count: Number(r.entry_count) }));
}

describe('tallies', () => {
  it('are exact after seeding', expectTotalsExact);

  it('follow inserts, moves to another date, deletes and deleting a user with runs', async () => {
    const [a, b] = await someUsers(2);
    const added: Entry[] = [];
    for (const date of ['2026-03-01', '2026-03-01', '2025-12-31', '2019-07-04']) {
      added.push(
        ...(await db.kysely
          .transaction()
          .execute((trx) => entriesService.insertRuns(trx, a!.id, [{ date, distanceKm: 10, seconds: 3000 }], nowIso))),
      );
    }
    await expectTotalsExact();
    const owner = { id: a!.id, role: 'user' as const };
    await entriesService.updateEntry(contextOf(), owner, added[0]!.id, {
      date: '2024-02-29',
      distance: 5,
      time: '00:25:00',
    });
    await entriesService.updateEntry(contextOf(), owner, added[1]!.id, {
      date: '2026-03-01',
      distance: 7,
      time: '00:35:00',
      effort: 6,
    });
    await expectTotalsExact();
    await entriesService.deleteEntry(contextOf(), { id: a!.id, role: 'user' }, added[2]!.id);
    await expectTotalsExact();
    await usersService.deleteUser(contextOf(), { id: b!.id, role: 'user' }, 'full', b!.id);
    await expectTotalsExact();
  });

  it('follow users added, and are put right by the repair command after a bulk delete', async () => {
    await usersService.insertAccount(db.kysely, {
      name: 'Late Joiner',
      email: 'late@example.com',
      passwordHash: 'x',
      role: 'user',
      timezone: 'UTC',
      createdAt: nowIso,
    });
    const few = await someUsers(3);
    await db.kysely
      .deleteFrom('users')
      .where(
        'id',
        'in',
        few.map((u) => u.id),
      )
      .execute();
    // The bulk delete bypasses the services: everyone's days still count the runners' runs.
    expect(await maintainedTotals(db.kysely)).not.toEqual(await recountedTotals(db.kysely));
    await entriesService.rebuildTallies(contextOf());
    await expectTotalsExact();
  });
});

describe('pages', () => {
  const ranges = [
    {},
    { dateFrom: '2024-01-01', dateTo: '2024-12-31' },
    { dateFrom: '2023-03-17', dateTo: '2025-08-09' },
    { dateFrom: '2025-02-10' },
    { dateTo: '2022-06-30' },
    { dateFrom: '2025-05-05', dateTo: '2025-05-20' },
  ];

  it('give exactly the plain pages of a runner, in every range, to past the end', async () => {
    const [runner] = await someUsers(1);
    for (const range of ranges) {
      let plain = db.kysely.selectFrom('entries').select('id').where('user_id', '=', runner!.id);
      if (range.dateFrom) plain = plain.where('date', '>=', range.dateFrom);
      if (range.dateTo) plain = plain.where('date', '<=', range.dateTo);
      const order = (await plain.orderBy('date', 'desc').orderBy('id', 'desc').execute()).map((r) => Number(r.id));
      for (const perPage of [15, 7]) {
        for (let offset = 0; offset <= runner!.count + perPage; offset += perPage) {
          const options = { ...range, limit: perPage, offset, allRuns: runner!.count };
          const page = await entries.listEntriesForUser(db.kysely, runner!.id, options);
          expect(page.entries.map((e) => e.id)).toEqual(order.slice(offset, offset + perPage));
          expect(page.total).toBe(order.length);
        }
      }
    }
  });

  it('count a range as the runs themselves do', async () => {
    const [runner] = await someUsers(1);
    for (const range of ranges.slice(1)) {
      const { total } = await entries.listEntriesForUser(db.kysely, runner!.id, {
        ...range,
        limit: 1,
        offset: 0,
        allRuns: 0,
      });
      let query = db.kysely
        .selectFrom('entries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', runner!.id);
      if (range.dateFrom) query = query.where('date', '>=', range.dateFrom);
      if (range.dateTo) query = query.where('date', '<=', range.dateTo);
      expect(total).toBe(Number((await query.executeTakeFirstOrThrow()).n));
    }
  });

  it("give exactly the plain pages of everyone's runs", async () => {
    const all = await everyone.countAllRuns(db.kysely);
    for (const range of ranges) {
      let plain = db.kysely.selectFrom('entries').select('id');
      if (range.dateFrom) plain = plain.where('date', '>=', range.dateFrom);
      if (range.dateTo) plain = plain.where('date', '<=', range.dateTo);
      const order = (
        await plain.orderBy('date', 'desc').orderBy('distance_m', 'desc').orderBy('id', 'desc').execute()
      ).map((r) => Number(r.id));
      for (const offset of [0, 1, 14, 15, 333, 1000, 2999, all - 20, all - 1, all, all + 15]) {
        const page = await everyone.listAllEntries(db.kysely, { ...range, limit: 15, offset });
        expect(page.entries.map((e) => e.id)).toEqual(order.slice(offset, offset + 15));
        expect(page.total).toBe(order.length);
      }
    }
  });

  it('give exactly the plain pages of the users list; new-user counts match the rows', async () => {
    const total = await users.countUsers(db.kysely);
    const order = (
      await db.kysely.selectFrom('users').select('id').orderBy('created_at', 'desc').orderBy('id', 'desc').execute()
    ).map((r) => Number(r.id));
    for (let offset = 0; offset <= total + 10; offset += 10) {
      const page = await users.listUsers(db.kysely, { limit: 10, offset });
      expect(page.users.map((u) => u.id)).toEqual(order.slice(offset, offset + 10));
      expect(page.total).toBe(total);
    }
    const createdSince = async (since: string) => {
      const row = await db.kysely
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    for (const since of ['2025-01-01T00:00:00.000Z', '2025-09-14T22:00:00.000Z', '2026-03-16T05:45:00.000Z', nowIso]) {
      expect(await users.countUsersSince(db.kysely, since)).toBe(await createdSince(since));
    }
  });
});

describe('user search', () => {
  beforeAll(async () => {
    for (const [name, email] of [
      ['Ärger Östlund', 'aerger@example.com'],
      ['100%_sure "Q"', 'percent@example.com'],
      ['Back\\Slash', 'slash@example.com'],
      // Every trigram of `abcabc` and of `aaaa`, but neither text.
      ['Cabc Abca', 'cabc@example.com'],
      ['Aaa Bbb', 'aaa@example.com'],
    ] as const) {
      await users.insertUser(db.kysely, {
        name,
        email,
        passwordHash: 'x',
        role: 'user',
        timezone: 'UTC',
        createdAt: nowIso,
      });
    }
    await users.updateUser(db.kysely, 5, { name: 'Renamed Runner', updatedAt: nowIso });
  });

  it('finds exactly the users whose name or e-mail contains the query, newest first, with the total', async () => {
    const everyone = (await users.listUsers(db.kysely, { limit: 1000, offset: 0 })).users;
    const queries = ['user1', 'USER12@', 'schmidt', 'example.com', 'Renamed', 'ärger', '0%_', '%', '_', 'h\\s', '"q"'];
    queries.push('an', 'x', 'ÖST', 'back\\slash', 'nobody-at-all', 'e r');
    queries.push('abcabc', 'cabc abca', 'aaaa', 'aaa', 'AAA B', 'ca@', 'renamed runner', 'cabc abca cabc abca');
    for (const query of queries) {
      const lower = query.toLowerCase();
      const expected = everyone.filter(
        (u) => u.name.toLowerCase().includes(lower) || u.email.toLowerCase().includes(lower),
      );
      const found = await users.listUsers(db.kysely, { query, limit: 5, offset: 0 });
      expect(found.total, query).toBe(expected.length);
      expect(
        found.users.map((u) => u.id),
        query,
      ).toEqual(expected.slice(0, 5).map((u) => u.id));
    }
  });
});

describe('query plans', () => {
  // SQLite plans the same at any size (no statistics); PostgreSQL rightly reads tables
  // this small whole, so its plans are checked on big data: npm run bench:explain.
  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    'never read a whole table or sort a big one in memory',
    async () => {
      const plans = await explainRepositoryQueries(db);
      expect(plans.length).toBeGreaterThan(40);
      const flagged = plans.filter((p) => p.problems.length > 0).map((p) => `${p.call}: ${p.problems.join('; ')}`);
      expect(flagged).toEqual([]);
    },
  );
});
