/**
 * The seed's runner with the longest history (a run every day of five years): seeded, its
 * maintained tallies equal a recount, and its insights see every day. Runs on SQLite, and on
 * PostgreSQL when TEST_DATABASE_URL is set.
 */
import { describe, expect, it } from 'vitest';
import { maintainedTotals, recountedTotals } from '../../scripts/seed/consistency.js';
import { seedDatabase } from '../../scripts/seed/seed.js';
import { testDatabase } from '../../scripts/support/scratch-database.js';
import { loadConfig } from '../config.js';
import { contextOf } from '../context.js';
import { openDatabase } from '../db/connection.js';
import * as insights from '../features/insights/insights.service.js';

describe('the seed runner with the longest history', () => {
  it('runs every day of five years, with exact maintained insights tables', async () => {
    const target = await testDatabase('insights_seed');
    const now = new Date('2026-03-18T12:00:00Z');
    const config = { ...loadConfig({ DATABASE_URL: target.url, WEB_ROOT: '' }), logLevel: 'silent', now: () => now };
    try {
      const seeded = await seedDatabase(config, { users: 3, entries: 120, now, longHistoryRunner: true });
      expect(seeded.entries).toBe(120 + 5 * 365 + 1);
      const db = openDatabase(config.databaseUrl, { poolSize: 1 });
      try {
        expect(await maintainedTotals(db.kysely)).toEqual(await recountedTotals(db.kysely));
        const user = await db.kysely
          .selectFrom('users')
          .select(['id', 'timezone'])
          .where('email', '=', seeded.longHistoryRunner!.email)
          .executeTakeFirstOrThrow();
        const ctx = contextOf(db.kysely, config);
        const owner = { id: Number(user.id), role: 'user' as const, timezone: user.timezone };
        expect(await insights.streaks(ctx, owner)).toMatchObject({
          current_days: 5 * 365 + 1,
          longest_days: 5 * 365 + 1,
        });
        expect((await insights.records(ctx, owner)).length).toBeGreaterThan(3);
      } finally {
        await db.close();
      }
    } finally {
      await target.drop();
    }
  }, 60_000);
});
