/**
 * The health check's round trip to the database. A compiled query: on SQLite, while a long
 * write (an import storing its runs) holds the one connection, it runs on the connection that
 * reads beside it (db/sqlite.ts readAside) instead of waiting for the write's commit.
 */
import { sql } from 'kysely';
import { compiled } from '../../db/compiled.js';

export const roundTrip = compiled()((db) => db.selectNoFrom(sql<number>`1`.as('one')));
