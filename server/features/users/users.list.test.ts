/**
 * The users list's pages (sign-up days, then its index), the search (FTS5 phrase or pg_trgm, a scan
 * for short queries) and the admin dashboard's sign-ups since an instant: each equals a plain
 * reading of the users table, after creates, deletions, renames and changes of creation time
 * (repaired by rebuildTallies), also when they race. Runs on SQLite, or on PostgreSQL when
 * TEST_DATABASE_URL is set.
 */
import { describe, expect, it } from 'vitest';
import { foldSearch } from '../../../core/search.js';
import type { Executor } from '../../db/schema.js';
import { migratedDatabase, randomOf } from '../../test/repository-database.js';
import * as users from './users.repository.js';
import { insertAccount } from './users.service.js';
import { rebuildTallies } from '../../db/tallies.js';
import { removeAccount } from '../../test/accounts.js';

const db = migratedDatabase('user_list', 4);

const random = randomOf(11);
let serial = 0;

/** An instant within three months, clustered: many users share an hour, some the same millisecond. */
function randomInstant(): string {
  const month = 1 + random(3);
  const day = 1 + random(random(2) === 0 ? 3 : 28);
  const hour = random(random(2) === 0 ? 2 : 24);
  const ms = random(3) === 0 ? 0 : random(3_600_000);
  return new Date(Date.UTC(2026, month - 1, day, hour) + ms).toISOString();
}

async function create(createdAt = randomInstant(), name = `Runner ${serial + 1}`) {
  serial += 1;
  const email = `runner${serial}@example.com`;
  return db()
    .kysely.transaction()
    .execute((trx) =>
      insertAccount(trx, {
        name,
        email,
        passwordHash: 'x',
        role: 'user',
        timezone: 'UTC',
        createdAt,
      }),
    );
}

async function remove(id: number) {
  await removeAccount(db().kysely, id);
}

async function ids(): Promise<number[]> {
  const rows = await db().kysely.selectFrom('users').select('id').execute();
  return rows.map((r) => Number(r.id));
}

/** The list as a plain ORDER BY / LIMIT / OFFSET reads it. */
async function plainPage(limit: number, offset: number) {
  const rows = await db()
    .kysely.selectFrom('users')
    .select('id')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => Number(r.id));
}

async function expectPagesAsPlain(label: string) {
  const all = await ids();
  for (const limit of [1, 7, 15]) {
    const offsets = [0, 1, limit, all.length - 1, all.length, all.length + 3];
    for (let i = 0; i < 12; i++) offsets.push(random(all.length + 1));
    // One way to page: the list's index and a plain OFFSET.
    for (const how of [{}]) {
      for (const offset of offsets) {
        const page = await users.listUsers(db().kysely, { limit, offset, ...how });
        expect(
          page.users.map((u) => u.id),
          `${label}: ${limit} @${offset} ${JSON.stringify(how)}`,
        ).toEqual(await plainPage(limit, offset));
        expect(page.total, `${label}: total`).toBe(all.length);
      }
    }
  }
}

function searchExpected(all: { id: number; name: string; email: string }[], query: string) {
  const folded = foldSearch(query);
  return all.filter((u) => foldSearch(`${u.name}\n${u.email}`).includes(folded)).map((u) => u.id);
}

async function expectSearchAsBruteForce(queries: string[], label: string) {
  const all = (await users.listUsers(db().kysely, { limit: 100_000, offset: 0 })).users;
  for (const query of queries) {
    const want = searchExpected(all, query);
    for (const limit of [2, 5]) {
      for (let offset = 0; offset <= want.length + limit; offset += limit) {
        const page = await users.listUsers(db().kysely, { query, limit, offset });
        expect(
          page.users.map((u) => u.id),
          `${label}: ${query} ${limit} @${offset}`,
        ).toEqual(want.slice(offset, offset + limit));
        expect(page.total, `${label}: ${query} ${limit} @${offset}`).toBe(want.length);
      }
    }
  }
}

/** A sign-up in the middle of the list, `read` within its transaction, then a rollback. */
async function signUpRolledBack(name: string, email: string, read: (trx: Executor) => Promise<unknown>) {
  await db()
    .kysely.transaction()
    .execute(async (trx) => {
      await insertAccount(trx, {
        name,
        email,
        passwordHash: 'x',
        role: 'user',
        timezone: 'UTC',
        createdAt: '2026-02-14T13:30:00.000Z',
      });
      await read(trx);
      throw new Error('roll back');
    })
    .catch((error: Error) => expect(error.message).toBe('roll back'));
}

describe('users list', () => {
  it('pages to the same users as a plain OFFSET, through creates, deletions, renames and moves', async () => {
    for (let i = 0; i < 150; i++) await create();
    await expectPagesAsPlain('created');

    const present = await ids();
    for (let i = 0; i < 30; i++) await remove(present[random(present.length)]!);
    await expectPagesAsPlain('deleted');

    const left = await ids();
    const now = '2026-05-01T00:00:00.000Z';
    for (let i = 0; i < 20; i++) {
      const id = left[random(left.length)]!;
      await users.updateUser(db().kysely, id, { name: `Renamed ${i}`, updatedAt: now });
      // A creation time moved to another month, day and hour (as an import of accounts could).
      await db().kysely.updateTable('users').set({ created_at: randomInstant() }).where('id', '=', id).execute();
    }
    // No service moves a creation time: a change by hand is put right by the repair command.
    await rebuildTallies(db().kysely);
    await expectPagesAsPlain('renamed and moved');
  });

  it('keeps every page exact when creates, deletions and renames race with reads', async () => {
    const racers: Promise<unknown>[] = [];
    const present = await ids();
    for (let i = 0; i < 40; i++) {
      racers.push(create(i % 3 === 0 ? '2026-04-01T10:00:00.000Z' : randomInstant()));
      if (i % 2 === 0) racers.push(remove(present[random(present.length)]!));
      if (i % 4 === 0) {
        racers.push(
          users.updateUser(db().kysely, present[random(present.length)]!, {
            name: `Raced ${i}`,
            updatedAt: '2026-05-02T00:00:00.000Z',
          }),
        );
      }
      racers.push(
        users.listUsers(db().kysely, { limit: 10, offset: random(120) }).then((page) => {
          // Mid-race, a page is still in the list's order.
          const keys = page.users.map((u) => `${u.created_at}|${String(u.id).padStart(10, '0')}`);
          expect(keys).toEqual([...keys].sort().reverse());
        }),
      );
    }
    await Promise.all(racers);
    await expectPagesAsPlain('after the race');
  });

  it('finds what a substring search finds, through creates, deletions, renames and races', async () => {
    const queries = ['runner', 'runner1', 'example.com', 'renamed', 'unknown', 'r'];
    await expectSearchAsBruteForce(queries, 'before');
    await create(undefined, 'Late Runner');
    await expectSearchAsBruteForce(queries, 'created');
    await remove((await ids())[0]!);
    await expectSearchAsBruteForce(queries, 'deleted');
    const someone = (await ids())[3]!;
    await users.updateUser(db().kysely, someone, { name: 'Renamed Again', updatedAt: '2026-05-03T00:00:00.000Z' });
    await expectSearchAsBruteForce(queries, 'renamed');
    await users.updateUser(db().kysely, someone, { email: 'moved@example.org', updatedAt: '2026-05-03T00:00:00.000Z' });
    await expectSearchAsBruteForce(queries, 'e-mail changed');
    // A query most users match, all of them older than everyone else: the newest users hold
    // none of its matches, so a page is not found near the top of the list.
    for (let i = 0; i < 260; i++) {
      await create(new Date(Date.UTC(2025, 0, 1) + i * 600_000).toISOString(), `Old Timer ${i}`);
    }
    await expectSearchAsBruteForce(['old timer', 'timer 1', 'runner'], 'clustered');
    // Writes racing with searches: once they settle, totals are exact again.
    const racers: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) {
      racers.push(create(undefined, `Runner raced ${i}`));
      racers.push(users.listUsers(db().kysely, { query: 'runner', limit: 3, offset: 0 }));
    }
    await Promise.all(racers);
    await expectSearchAsBruteForce(queries, 'after the race');
  });

  it('keeps no search total counted inside a transaction that rolls back', async () => {
    // Several users' names hold it (the renames above): a first page is full, and its total counted.
    const query = 'renamed';
    await expectSearchAsBruteForce([query], 'before');
    await signUpRolledBack('Renamed Then Rolled Back', 'rolled.back@example.org', (trx) =>
      users.listUsers(trx, { query, limit: 2, offset: 0 }),
    );
    // The next sign-up takes the revision the rolled-back one had, and does not match.
    await create(undefined, 'Someone Else');
    await expectSearchAsBruteForce([query], 'after a rollback');
  });

  it('counts sign-ups since any instant as the users table does', async () => {
    const all = await db().kysely.selectFrom('users').select('created_at').execute();
    const instants = [
      '2026-01-01T00:00:00.000Z',
      '2026-02-14T00:00:00.000Z',
      '2026-02-14T13:00:00.000Z',
      '2026-02-14T13:30:00.000Z',
      '2026-03-31T23:59:59.999Z',
      '2026-04-01T10:00:00.000Z',
      '2026-04-01T09:59:59.999Z',
    ];
    for (let i = 0; i < 10; i++) instants.push(randomInstant());
    for (let i = 0; i < instants.length - 1; i++) {
      const a = instants[i]!;
      const b = instants[i + 1]!;
      const totals = {
        users: await users.countUsers(db().kysely),
        sinceA: await users.countUsersSince(db().kysely, a),
        sinceB: await users.countUsersSince(db().kysely, b),
      };
      expect(totals.sinceA, a).toBe(all.filter((u) => u.created_at >= a).length);
      expect(totals.sinceB, b).toBe(all.filter((u) => u.created_at >= b).length);
      expect(totals.users).toBe(all.length);
    }
  });
});
