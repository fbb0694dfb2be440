/**
 * The query plan of every query the repositories send, on a real database: each
 * repository function runs once inside a transaction that is rolled back, its SQL is
 * captured, and the database explains it (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on
 * PostgreSQL). `problems` lists plans that read a whole table or sort in memory.
 */
import { Kysely, PostgresDialect, SqliteDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import type { Entry } from '../../core/schemas.js';
import type { Db } from '../../server/db/connection.js';
import type { Database } from '../../server/db/schema.js';
import * as throttle from '../../server/features/auth/throttle.repository.js';
import * as tallies from '../../server/db/tallies.js';
import * as entries from '../../server/features/entries/entries.repository.js';
import * as everyone from '../../server/features/entries/everyone.repository.js';
import * as insights from '../../server/features/insights/insights.repository.js';
import * as stats from '../../server/features/stats/stats.repository.js';
import * as tokens from '../../server/features/users/tokens.repository.js';
import * as users from '../../server/features/users/users.repository.js';

export interface QueryPlan {
  /** The repository call that sent the query. */
  call: string;
  sql: string;
  plan: string[];
  problems: string[];
}

/** A repository call, and why it may read all of a big table's index (null: it may not). */
type Step = [call: string, run: (db: Kysely<Database>) => Promise<unknown>, wholeIndex?: string];

class Rollback extends Error {}

/** Tables whose size grows with the data; a plan must never read them whole. */
const BIG_TABLES = ['entries', 'users', 'tokens'];

/**
 * SQLite: `SCAN t` reads the whole table; `SCAN t USING INDEX` walks an index in order,
 * which is fine only when a LIMIT stops it. A sort in memory (`USE TEMP B-TREE`) is a
 * problem when it sorts rows of a big table read by a scan or a range, not when it sorts
 * bucket rows or rows fetched one by one by primary key (search matches).
 */
function sqliteProblems(sql: string, plan: string[]): string[] {
  const limited = /\blimit\b/i.test(sql);
  const big = (line: string) => BIG_TABLES.some((t) => new RegExp(`^(SCAN|SEARCH) ${t}\\b`).test(line));
  const readsMany = plan.some((line) => big(line) && !/PRIMARY KEY|\(rowid=\?\)/.test(line));
  return plan.filter((line) => {
    if (big(line) && line.startsWith('SCAN ')) return !(limited && /USING (COVERING )?INDEX/.test(line));
    return /USE TEMP B-TREE FOR (ORDER BY|GROUP BY)/.test(line) && readsMany;
  });
}

/**
 * PostgreSQL: a sequential scan of a big table (PostgreSQL rightly reads a table of a few
 * pages whole: scans it estimates below 100 cost units pass), and a sort on top of one.
 * Sorts of rows an index selected (search matches, bucket rows) pass.
 */
function postgresProblems(plan: string[]): string[] {
  const seqScans = plan.filter((line) => {
    const table = BIG_TABLES.find((t) => new RegExp(`Seq Scan on ${t}\\b`).test(line));
    const cost = Number(/cost=[\d.]+\.\.([\d.]+)/.exec(line)?.[1] ?? 0);
    return table !== undefined && cost >= 100;
  });
  if (seqScans.length === 0) return [];
  return [...seqScans, ...plan.filter((line) => /\bSort\b/.test(line) && !/Sort Key/.test(line))];
}

export async function explainRepositoryQueries(db: Db): Promise<QueryPlan[]> {
  const captured: { call: string; query: CompiledQuery; wholeIndex: string | undefined }[] = [];
  let current = '';
  let wholeIndex: string | undefined;
  const log = (event: { level: string; query: CompiledQuery }) => {
    captured.push({ call: current, query: event.query, wholeIndex });
  };
  const kysely =
    db.dialect === 'sqlite'
      ? new Kysely<Database>({ dialect: new SqliteDialect({ database: db.sqlite! }), log })
      : new Kysely<Database>({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: poolUrl(db), max: 1 }) }),
          log,
        });

  try {
    // A typical runner and one of their runs.
    const sample = await db.kysely
      .selectFrom('users')
      .innerJoin('entries', 'entries.user_id', 'users.id')
      .select(['users.id as userId', 'users.entry_count', 'entries.id as entryId', 'entries.date'])
      .orderBy('users.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const userId = Number(sample?.userId ?? 1);
    const entryId = Number(sample?.entryId ?? 1);
    const known = Number(sample?.entry_count ?? 0);
    const user = await users.findUserById(db.kysely, userId);
    const entry = (await entries.findEntryById(db.kysely, entryId)) ?? ({ id: entryId, user_id: userId } as Entry);
    const now = new Date().toISOString();
    const year = now.slice(0, 4);
    const values = { date: `${year}-01-02`, distanceKm: 10.5, seconds: 3000 };
    const page = { limit: 15, offset: 0 };
    const facts = { id: entryId, userId, date: values.date, distanceM: 10_500, seconds: 3000, effort: null };

    const steps: Step[] = [
      ['tokens.findTokenOwner', (k) => tokens.findTokenOwner(k, 'a'.repeat(64))],
      ['tokens.insertToken', (k) => tokens.insertToken(k, userId, 'b'.repeat(64), now)],
      ['tokens.touchToken', (k) => tokens.touchToken(k, 1, now)],
      ['tokens.deleteToken', (k) => tokens.deleteToken(k, 1)],
      ['tokens.deleteUserTokens', (k) => tokens.deleteUserTokens(k, userId, 1)],
      ['tokens.deleteIdleTokens', (k) => tokens.deleteIdleTokens(k, '2000-01-01T00:00:00.000Z')],
      ['throttle.hit', (k) => throttle.hit(k, 'login:x', Date.now(), 60_000)],
      ['throttle.clear', (k) => throttle.clear(k, 'login:x')],
      ['throttle.deleteExpired', (k) => throttle.deleteExpired(k, Date.now() - 60_000)],
      ['users.findUserById', (k) => users.findUserById(k, userId)],
      ['users.findUserByEmail', (k) => users.findUserByEmail(k, 'user1@example.com')],
      ['users.emailTakenByOther', (k) => users.emailTakenByOther(k, 'user1@example.com', userId)],
      ['users.countAdmins', (k) => users.countAdmins(k)],
      ['users.countUsers', (k) => users.countUsers(k), 'a count of every user: their smallest index'],
      ['users.countUsersSince', (k) => users.countUsersSince(k, `${year}-01-01T00:00:00.000Z`)],
      ['users.listUsers', (k) => users.listUsers(k, { limit: 15, offset: 0 }), 'its total: a count of every user'],
      [
        'users.listUsers (deep page)',
        (k) => users.listUsers(k, { limit: 15, offset: 4980 }),
        'its total: a count of every user',
      ],
      ['users.listUsers (query)', (k) => users.listUsers(k, { query: 'user12@', limit: 15, offset: 0 })],
      [
        'users.listUsers (short query)',
        (k) => users.listUsers(k, { query: 'u1', limit: 15, offset: 0 }),
        'a query too short for trigrams: the list index, which carries the text',
      ],
      ['users.updateUser', (k) => users.updateUser(k, userId, { name: 'X', updatedAt: now })],
      [
        'users.insertUser',
        (k) =>
          users.insertUser(k, {
            name: 'Plan',
            email: 'plan@example.com',
            passwordHash: 'x',
            role: 'user',
            timezone: 'UTC',
            createdAt: now,
          }),
      ],
      ['users.deleteUser', async (k) => user && users.deleteUser(k, user.id)],
      ['tallies.countRuns', (k) => tallies.countRuns(k, [facts], [facts])],
      [
        'tallies.forgetRunner',
        async (k) => {
          const tally = new tallies.RunTally(k);
          await tally.forgetRunner(userId);
          await tally.finish();
        },
      ],
      ['entries.findEntryById', (k) => entries.findEntryById(k, entryId)],
      ['entries.insertEntries', (k) => entries.insertEntries(k, userId, [values], now)],
      ['entries.updateEntry', (k) => entries.updateEntry(k, entryId, values, now)],
      ['entries.deleteEntry', (k) => entries.deleteEntry(k, entry.id)],
      ['entries.listEntriesForUser', (k) => entries.listEntriesForUser(k, userId, { ...page, allRuns: known })],
      [
        'entries.listEntriesForUser (last page)',
        (k) => entries.listEntriesForUser(k, userId, { ...page, allRuns: known, offset: Math.max(0, known - 15) }),
      ],
      [
        'entries.listEntriesForUser (one year)',
        (k) =>
          entries.listEntriesForUser(k, userId, {
            ...page,
            allRuns: known,
            dateFrom: `${year}-01-01`,
            dateTo: `${year}-12-31`,
          }),
      ],
      ['everyone.listAllEntries', (k) => everyone.listAllEntries(k, page)],
      ['everyone.listAllEntries (deep page)', (k) => everyone.listAllEntries(k, { ...page, offset: 150_000 })],
      [
        'everyone.listAllEntries (one month)',
        (k) => everyone.listAllEntries(k, { ...page, dateFrom: `${year}-01-01`, dateTo: `${year}-01-31` }),
      ],
      ['stats.dailyTotals', (k) => stats.dailyTotals(k, userId, `${year}-01-01`, `${year}-12-31`)],
      ['stats.personalBests', (k) => stats.personalBests(k, userId)],
      ['stats.dateSpan', (k) => stats.dateSpan(k, userId)],
      ['everyone.countAllRuns', (k) => everyone.countAllRuns(k)],
      ['everyone.recordsOfEveryone', (k) => everyone.recordsOfEveryone(k)],
      ['insights.listEfforts', (k) => insights.listEfforts(k, userId)],
      ['insights.listDays', (k) => insights.listDays(k, userId, '0000-01-01', `${year}-12-31`)],
      ['insights.listRunDates', (k) => insights.listRunDates(k, userId, `${year}-12-31`)],
      ['insights.listDayLoads', (k) => insights.listDayLoads(k, userId, '0000-01-01', `${year}-12-31`)],
      ['insights.totals', (k) => insights.totals(k, userId, `${year}-01-01`, `${year}-12-31`)],
      ['insights.listRuns', (k) => insights.listRuns(k, userId, `${year}-01-01`, `${year}-12-31`, 3000)],
    ];

    for (const [call, run, why] of steps) {
      current = call;
      wholeIndex = why;
      await kysely
        .transaction()
        .execute(async (trx) => {
          await run(trx);
          throw new Rollback();
        })
        .catch((error: unknown) => {
          if (!(error instanceof Rollback)) throw error;
        });
    }

    const seen = new Set<string>();
    const plans: QueryPlan[] = [];
    for (const { call, query, wholeIndex: allowed } of captured) {
      if (/^(begin|commit|rollback|savepoint|release)/i.test(query.sql.trim())) continue;
      const key = `${call}\n${query.sql}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const plan =
        db.dialect === 'sqlite'
          ? (
              db.sqlite!.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as {
                detail: string;
              }[]
            ).map((r) => r.detail)
          : await postgresPlan(db, query);
      plans.push({
        call,
        sql: query.sql,
        plan,
        problems: (db.dialect === 'sqlite' ? sqliteProblems(query.sql, plan) : postgresProblems(plan)).filter(
          // A whole index read on purpose (the call says why): never a whole table's rows.
          (line) => !(allowed && /USING (COVERING )?INDEX|Index Only Scan/.test(line)),
        ),
      });
    }
    return plans;
  } finally {
    if (db.dialect === 'postgres') await kysely.destroy();
  }
}

let currentUrl = '';
/** PostgreSQL plans come from a connection of their own, to the same database. */
export function usePostgresUrl(url: string): void {
  currentUrl = url;
}

function poolUrl(db: Db): string {
  if (!currentUrl) throw new Error(`Call usePostgresUrl(url) before explaining a ${db.dialect} database.`);
  return currentUrl;
}

async function postgresPlan(db: Db, query: CompiledQuery): Promise<string[]> {
  const client = new pg.Client({ connectionString: poolUrl(db) });
  await client.connect();
  try {
    const result = await client.query<{ 'QUERY PLAN': string }>(`explain ${query.sql}`, query.parameters as unknown[]);
    return result.rows.map((r) => r['QUERY PLAN']);
  } finally {
    await client.end();
  }
}
