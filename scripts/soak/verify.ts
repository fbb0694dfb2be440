/**
 * After a soak or a crash: is every acknowledged write in the database, with the right
 * values, and is the database itself sound (SQLite integrity check, totals that match
 * their tables)?
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { parseDuration } from '../../core/time.js';
import type { Ledger } from './load.js';

export interface EntryRow {
  id: number;
  user_id: number;
  date: string;
  distance_m: number;
  seconds: number;
}

export interface DatabaseState {
  entries: Map<number, EntryRow>;
  /** "ok" when SQLite's integrity check passes; "not applicable" on PostgreSQL. */
  integrity: string;
  /** Differences between the stored totals and their tables; empty when they match. */
  counterMismatches: string[];
}

/** The tallies of server/db/tallies.ts that a lost or doubled write would put wrong, against their tables. */
const COUNTS_SQL = {
  entries: 'SELECT (SELECT COALESCE(SUM(n), 0) FROM entry_days) AS stored, (SELECT COUNT(*) FROM entries) AS actual',
  perUser:
    'SELECT u.id, u.entry_count AS stored, COUNT(e.id) AS actual FROM users u LEFT JOIN entries e ON e.user_id = u.id GROUP BY u.id, u.entry_count HAVING u.entry_count <> COUNT(e.id)',
};

function mismatches(
  totals: { name: string; stored: number; actual: number }[],
  perUser: { id: number; stored: number; actual: number }[],
): string[] {
  const out: string[] = [];
  for (const t of totals) {
    if (Number(t.stored) !== Number(t.actual)) out.push(`tally of ${t.name} is ${t.stored}, table has ${t.actual}`);
  }
  for (const u of perUser) out.push(`user ${u.id} entry_count is ${u.stored}, table has ${u.actual}`);
  return out;
}

/** Reads every entry and checks the database; the server should be stopped (or idle). */
export async function readDatabase(databaseUrl: string): Promise<DatabaseState> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
    try {
      const integrity = (db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[])
        .map((r) => r.integrity_check)
        .join('; ');
      const rows = db.prepare('SELECT id, user_id, date, distance_m, seconds FROM entries').all() as EntryRow[];
      const total = (name: string, sql: string) => ({
        name,
        ...(db.prepare(sql).get() as { stored: number; actual: number }),
      });
      const perUser = db.prepare(COUNTS_SQL.perUser).all() as { id: number; stored: number; actual: number }[];
      return {
        entries: new Map(rows.map((r) => [r.id, r])),
        integrity,
        counterMismatches: mismatches([total('entries', COUNTS_SQL.entries)], perUser),
      };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<EntryRow>('SELECT id, user_id, date, distance_m, seconds FROM entries');
    const total = async (name: string, sql: string) => ({
      name,
      ...(await client.query<{ stored: number; actual: number }>(sql)).rows[0]!,
    });
    const perUser = (await client.query<{ id: number; stored: number; actual: number }>(COUNTS_SQL.perUser)).rows;
    return {
      entries: new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id), user_id: Number(r.user_id) }])),
      integrity: 'not applicable',
      counterMismatches: mismatches([await total('entries', COUNTS_SQL.entries)], perUser),
    };
  } finally {
    await client.end();
  }
}

function matches(row: EntryRow, expected: { userId: number; date: string; distance: number; time: string }): boolean {
  return (
    Number(row.user_id) === expected.userId &&
    row.date === expected.date &&
    Number(row.distance_m) === Math.round(expected.distance * 1000) &&
    Number(row.seconds) === parseDuration(expected.time)
  );
}

export interface WriteCheck {
  checked: number;
  /** One line per acknowledged write that is missing or wrong. */
  problems: string[];
}

/** Every acknowledged create and update is stored with its values; every acknowledged delete is gone. */
export function checkLedger(ledger: Ledger, state: DatabaseState): WriteCheck {
  const problems: string[] = [];
  // Writes still in flight when the load stopped may or may not have happened.
  const uncertain = new Map<
    number,
    { kind: 'update' | 'delete'; values?: { date: string; distance: number; time: string } }
  >();
  for (const write of ledger.inFlight.values()) uncertain.set(write.id, write);

  for (const [id, expected] of ledger.live) {
    const row = state.entries.get(id);
    const pending = uncertain.get(id);
    if (!row) {
      if (pending?.kind !== 'delete') problems.push(`entry ${id} was acknowledged but is missing`);
      continue;
    }
    const ok =
      matches(row, expected) ||
      (pending?.kind === 'update' && pending.values && matches(row, { ...expected, ...pending.values }));
    if (!ok) {
      problems.push(
        `entry ${id} should be ${JSON.stringify(expected)} but is ${JSON.stringify({ user_id: row.user_id, date: row.date, distance_m: row.distance_m, seconds: row.seconds })}`,
      );
    }
  }
  for (const id of ledger.deleted) {
    if (state.entries.has(id)) problems.push(`entry ${id} was deleted (acknowledged) but is still there`);
  }
  if (state.integrity !== 'ok' && state.integrity !== 'not applicable') {
    problems.push(`integrity check: ${state.integrity}`);
  }
  problems.push(...state.counterMismatches);
  return { checked: ledger.live.size + ledger.deleted.size, problems };
}
