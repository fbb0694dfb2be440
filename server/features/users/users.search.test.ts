/**
 * The users search (decision 011): a user is found when the fold of their name or e-mail
 * contains the fold of the query (core/search.ts), the same on SQLite and PostgreSQL, newest
 * first, with the exact total, on every page, and after every rename.
 * Runs on SQLite, or on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { describe, expect, it } from 'vitest';
import { foldSearch, userSearchText } from '../../../core/search.js';
import { migratedDatabase, randomOf } from '../../test/repository-database.js';
import { removeAccount } from '../../test/accounts.js';
import * as users from './users.repository.js';
import { insertAccount } from './users.service.js';

const db = migratedDatabase('user_search', 2);

const ALPHABET = ['a', 'b', 'i', 'I', 'İ', 'ı', 'Σ', 'σ', 'ς', 'é', 'É', 'ß', '%', '_', '"', "'", ' ', '\\', 'x'];
let serial = 0;

async function addUser(name: string, createdAt: string) {
  serial += 1;
  return insertAccount(db().kysely, {
    name,
    email: `u${serial}-${name.length}@example.com`,
    passwordHash: 'x',
    role: 'user',
    timezone: 'UTC',
    createdAt,
  });
}

/** Every user, in the list's order, and the brute-force search over them. */
async function everyone() {
  return (await users.listUsers(db().kysely, { limit: 100_000, offset: 0 })).users;
}

function expected(all: Pick<users.UserRecord, 'id' | 'name' | 'email'>[], query: string) {
  const folded = foldSearch(query);
  return all
    .filter((u) => foldSearch(u.name).includes(folded) || foldSearch(u.email).includes(folded))
    .map((u) => u.id);
}

async function searchIds(query: string, limit: number, offset: number) {
  const found = await users.listUsers(db().kysely, { query, limit, offset });
  return { ids: found.users.map((u) => u.id), total: found.total };
}

describe('users search', () => {
  it('finds İstanbul, ISTANBUL and istanbul by any of the three, and each exact name', async () => {
    const spellings = ['İstanbul', 'ISTANBUL', 'istanbul', 'Iİıi Σίσυφος', 'ΟΔΟΣ'];
    const added = [];
    for (const name of spellings) added.push(await addUser(name, '2026-01-01T00:00:00.000Z'));
    const istanbul = added.slice(0, 3).map((u) => u.id);
    for (const query of ['İstanbul', 'ISTANBUL', 'istanbul', 'İSTAN', 'stanbul', 'İs', 'İ']) {
      const { ids } = await searchIds(query, 100, 0);
      for (const id of istanbul) expect(ids, query).toContain(id);
    }
    for (const user of added) {
      expect((await searchIds(user.name, 100, 0)).ids, user.name).toContain(user.id);
      expect((await searchIds(user.email.toUpperCase(), 100, 0)).ids, user.email).toEqual([user.id]);
    }
    // A final sigma is found from the word's beginning, as inside a longer word.
    expect((await searchIds('ΟΔΟΣ', 100, 0)).ids).toContain(added[4]!.id);
    expect((await searchIds('οδοσ', 100, 0)).ids).toContain(added[4]!.id);
  });

  it('returns exactly the users a brute-force filter finds, on every page, with the total', async () => {
    const random = randomOf(7);
    for (let i = 0; i < 160; i++) {
      const name = Array.from({ length: 1 + random(9) }, () => ALPHABET[random(ALPHABET.length)]).join('');
      // Creation times that tie and that do not follow the ids.
      const day = 1 + random(28);
      const createdAt = `2025-02-${String(day).padStart(2, '0')}T0${random(3)}:00:00.${String(random(2)).padStart(3, '0')}Z`;
      await addUser(name.trim() === '' ? `n${name}` : name, createdAt);
    }
    const all = await everyone();
    const queries = [
      '%',
      '_',
      '"',
      "'",
      '\\',
      'a',
      'ab',
      'İ',
      'i',
      'ı',
      'ς',
      'σ',
      'ss',
      'é',
      'É',
      'A_',
      "'%",
      '@example',
      'nobody',
      // The end of the e-mail (queries hold no control characters: the API refuses them).
      'om',
      'm',
    ];
    for (let i = 0; i < 40; i++) {
      const source = all[random(all.length)]!.name;
      const from = random(source.length);
      queries.push(source.slice(from, from + 1 + random(5)));
    }
    for (const query of queries) {
      const want = expected(all, query);
      const limit = 1 + random(7);
      for (let offset = 0; offset <= want.length + limit; offset += limit) {
        const page = await searchIds(query, limit, offset);
        expect(page.ids, `${query} @${offset}`).toEqual(want.slice(offset, offset + limit));
        expect(page.total, `${query} @${offset}`).toBe(want.length);
      }
    }
  });

  it('counts a query with rare and common trigrams exactly', async () => {
    const random = randomOf(13);
    for (let i = 0; i < 40; i++) {
      const domain = i % 4 === 0 ? 'elsewhere.org' : 'example.com';
      await insertAccount(db().kysely, {
        name: `Trail Runner ${i}`,
        email: `r${i}@${domain}`,
        passwordHash: 'x',
        role: 'user',
        timezone: 'UTC',
        createdAt: `2026-03-0${1 + (i % 9)}T00:00:00.000Z`,
      });
    }
    const all = await everyone();
    // Rare trigrams (`12@`, `3@e`) beside common ones (`@ex`, `xam`, `unn`), and texts that hold
    // the rare trigram without the query (`r2@elsewhere.org` for `2@example`).
    const queries = new Set([
      '12@example',
      '2@example',
      '3@exa',
      '0@elsewhere',
      'r1@',
      'runner 3',
      'ner 12',
      '1@example.co',
    ]);
    for (let i = 0; i < 30; i++) {
      const source = userSearchText(all[random(all.length)]!.name, all[random(all.length)]!.email);
      const from = random(source.length);
      const query = source.slice(from, from + 3 + random(8));
      if (!query.includes('\n')) queries.add(query);
    }
    for (const query of queries) {
      const want = expected(all, query);
      // In a transaction too: a full page's total is counted.
      const found = await db()
        .kysely.transaction()
        .execute((trx) => users.listUsers(trx, { query, limit: 1, offset: 0 }));
      expect(found.total, query).toBe(want.length);
      expect(
        found.users.map((u) => u.id),
        query,
      ).toEqual(want.slice(0, 1));
    }
  });

  it('follows renames of the name, the e-mail or both', async () => {
    const user = await addUser('Before Rename', '2026-02-01T00:00:00.000Z');
    const now = '2026-02-02T00:00:00.000Z';
    await users.updateUser(db().kysely, user.id, { name: 'Zeynep İnce', updatedAt: now });
    expect((await searchIds('Before', 100, 0)).ids).not.toContain(user.id);
    expect((await searchIds('zeynep ince', 100, 0)).ids).toEqual([user.id]);
    await users.updateUser(db().kysely, user.id, { email: 'Renamed.Mail@Example.org', updatedAt: now });
    expect((await searchIds('zeynep', 100, 0)).ids).toEqual([user.id]);
    expect((await searchIds('renamed.mail@', 100, 0)).ids).toEqual([user.id]);
    await users.updateUser(db().kysely, user.id, { name: 'Third', email: 'third@example.net', updatedAt: now });
    expect((await searchIds('zeynep', 100, 0)).ids).toEqual([]);
    expect((await searchIds('renamed.mail', 100, 0)).ids).toEqual([]);
    expect((await searchIds('third@EXAMPLE.net', 100, 0)).ids).toEqual([user.id]);
    const stored = await db()
      .kysely.selectFrom('users')
      .select('search_text')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored.search_text).toBe(userSearchText('Third', 'third@example.net'));
  });

  it('keeps both halves when the name and the e-mail change at the same time', async () => {
    const now = '2026-02-03T00:00:00.000Z';
    for (let round = 0; round < 5; round++) {
      const user = await addUser(`Racer ${round}`, now);
      const name = `Ünal ${round}`;
      const email = `ünal${round}@example.com`;
      await Promise.all([
        db()
          .kysely.transaction()
          .execute((trx) => users.updateUser(trx, user.id, { name, updatedAt: now })),
        db()
          .kysely.transaction()
          .execute((trx) => users.updateUser(trx, user.id, { email, updatedAt: now })),
      ]);
      const row = await db()
        .kysely.selectFrom('users')
        .select(['name', 'email', 'search_text'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.search_text).toBe(userSearchText(row.name, row.email));
      expect((await searchIds(name, 10, 0)).ids).toEqual([user.id]);
      expect((await searchIds(email, 10, 0)).ids).toEqual([user.id]);
    }
  });

  it('answers every page of a query as a brute-force search, with every column fresh, through every kind of change', async () => {
    const random = randomOf(11);
    const created: number[] = [];
    for (let i = 0; i < 30; i++) {
      const user = await addUser(
        `Kept Page ${i % 3 === 0 ? 'Ozan' : 'Ece'} ${i}`,
        `2026-04-0${1 + (i % 9)}T00:00:00.000Z`,
      );
      created.push(user.id);
    }
    const query = 'kept page';
    const check = async (step: string) => {
      const all = await everyone();
      const want = expected(all, query);
      const byId = new Map(all.map((u) => [u.id, u]));
      for (let offset = 0; offset <= want.length; offset += 7) {
        // Twice: a page read again answers the same.
        for (let round = 0; round < 2; round++) {
          const page = await users.listUsers(db().kysely, { query, limit: 7, offset });
          expect(
            page.users.map((u) => u.id),
            `${step} @${offset}`,
          ).toEqual(want.slice(offset, offset + 7));
          expect(page.total, `${step} @${offset}`).toBe(want.length);
          for (const user of page.users) expect(user, step).toEqual(byId.get(user.id));
        }
      }
    };
    await check('first');
    const now = '2026-04-20T00:00:00.000Z';
    for (let step = 0; step < 24; step++) {
      const id = created[random(created.length)]!;
      switch (step % 6) {
        case 0: // the role and the time zone: columns of the page that move no revision
          await users.updateUser(db().kysely, id, {
            role: random(2) ? 'manager' : 'user',
            timezone: 'Asia/Tokyo',
            updatedAt: now,
          });
          break;
        case 1: // a new match, newest first
          created.push((await addUser(`Kept Page new ${step}`, `2026-04-1${step % 10}T00:00:00.000Z`)).id);
          break;
        case 2: // a match leaves
          await removeAccount(db().kysely, created.splice(random(created.length), 1)[0]!);
          break;
        case 3: // a rename out of the query, and back in
          await users.updateUser(db().kysely, id, { name: `Renamed ${step}`, updatedAt: now });
          await check(`renamed out ${step}`);
          await users.updateUser(db().kysely, id, { name: `Kept Page back ${step}`, updatedAt: now });
          break;
        case 4: // someone who does not match joins: the revision moves, the pages stay the same
          await addUser(`Other ${step}`, `2026-04-15T00:00:00.000Z`);
          break;
        default: // units and theme
          await users.updateUser(db().kysely, id, { units: 'mi', theme: 'dark', updatedAt: now });
      }
      await check(`step ${step}`);
    }
  });
});
