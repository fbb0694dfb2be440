/**
 * readAside (server/db/sqlite.ts): while a long write transaction holds SQLite's one
 * connection, other requests' compiled reads run on a second connection and see the last
 * committed state instead of waiting; without it (or once released) they wait for the commit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiled } from '../../db/compiled.js';
import { openDatabase, type Db } from '../../db/connection.js';
import { readAside } from '../../db/sqlite.js';

let dir: string;
let db: Db;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'read-aside-'));
  db = openDatabase(`sqlite:${path.join(dir, 'aside.db')}`, { backgroundCheckpoints: false });
  await sql`create table things (id integer primary key, name text not null)`.execute(db.kysely);
  await sql`insert into things (name) values ('committed')`.execute(db.kysely);
});
afterAll(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const names = compiled()((d) => ({
  compile: () => sql<{ name: string }>`select name from things order by id`.compile(d),
}));

/** Turns of the event loop: enough for a read that does not wait to be answered. */
const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A write transaction held open until `commit` is called; resolves once it has written. */
function longWrite(): Promise<{ commit: () => void; done: Promise<void> }> {
  return new Promise((started) => {
    const done = db.kysely.transaction().execute(async (trx) => {
      await sql`insert into things (name) values ('uncommitted')`.execute(trx);
      await new Promise<void>((commit) => started({ commit, done }));
    });
  });
}

describe('readAside', () => {
  it('lets reads of others run beside a long write, on the committed state, and only while it is asked', async () => {
    // Without it: the read waits for the commit.
    let write = await longWrite();
    let answered: string[] | null = null;
    const waiting = names(db.kysely, {}).then((rows) => (answered = rows.map((r) => r.name)));
    await turns();
    expect(answered).toBeNull();
    write.commit();
    await write.done;
    await waiting;
    expect(answered).toEqual(['committed', 'uncommitted']);

    // With it: answered at once, without the rows of the transaction still open.
    const release = readAside(db.kysely);
    write = await longWrite();
    answered = null;
    void names(db.kysely, {}).then((rows) => (answered = rows.map((r) => r.name)));
    await turns();
    expect(answered).toEqual(['committed', 'uncommitted']);
    // Writes of others still wait their turn.
    let wrote = false;
    const writing = sql`insert into things (name) values ('later')`.execute(db.kysely).then(() => (wrote = true));
    await turns();
    expect(wrote).toBe(false);
    write.commit();
    await write.done;
    await writing;
    release();

    // Released: waiting again.
    write = await longWrite();
    answered = null;
    const again = names(db.kysely, {}).then((rows) => (answered = rows.map((r) => r.name)));
    await turns();
    expect(answered).toBeNull();
    write.commit();
    await write.done;
    await again;
    expect(answered).toHaveLength(5);
  });
});
