/**
 * `npm run soak`, briefly: the same workload and checks as the 60-second run, for a few
 * seconds on a few connections. And the write check itself, shown to catch a lost, a
 * wrong and a resurrected entry, and totals that drift.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../../scripts/soak/load.js';
import { runSoak } from '../../../scripts/soak/run.js';
import { checkLedger, type DatabaseState, type EntryRow } from '../../../scripts/soak/verify.js';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.js';

describe('npm run soak (a few seconds)', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await createScratchDatabase();
  });
  afterAll(async () => {
    await db.remove();
  });

  it('serves a mixed load with no errors and no 5xx, and every acknowledged write is stored', async () => {
    const report = await runSoak({
      durationSeconds: 3,
      warmupSeconds: 1,
      connections: 10,
      runners: 3,
      // Too short a run to judge memory growth; the 60-second run applies the 20% limit.
      maxRssGrowth: 10,
      databaseUrl: db.url,
    });
    expect(report.failures).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.load.requests).toBeGreaterThan(100);
    expect(report.load.errors + report.load.timeouts).toBe(0);
    expect(report.load.status5xx).toBe(0);
    expect(report.writes.created).toBeGreaterThan(10);
    expect(report.writes.updated).toBeGreaterThan(0);
    expect(report.writes.deleted).toBeGreaterThan(0);
    expect(report.writes.problems).toEqual([]);
    expect(report.rss.afterWarmup).toBeGreaterThan(0);
    expect(report.serverExit).toBe('code 0');
    if (db.dialect === 'sqlite') expect(report.integrity).toBe('ok');
  }, 120_000);
});

describe('the acknowledged-write check', () => {
  const row = (id: number, user_id: number, date: string, distance_m: number, seconds: number): EntryRow => ({
    id,
    user_id,
    date,
    distance_m,
    seconds,
  });

  function state(rows: EntryRow[], counterMismatches: string[] = []): DatabaseState {
    return { entries: new Map(rows.map((r) => [r.id, r])), integrity: 'ok', counterMismatches };
  }

  function ledger(): Ledger {
    const l = new Ledger();
    l.acknowledgeCreate(1, { userId: 7, date: '2026-03-01', distance: 10.5, time: '00:50:00' });
    l.acknowledgeCreate(2, { userId: 7, date: '2026-03-02', distance: 5, time: '00:25:00' });
    l.acknowledgeUpdate(2, { date: '2026-03-03', distance: 6.123, time: '00:30:01' });
    l.acknowledgeCreate(3, { userId: 8, date: '2026-03-04', distance: 1, time: '00:05:00' });
    l.acknowledgeDelete(3);
    return l;
  }
  const good = [row(1, 7, '2026-03-01', 10_500, 3000), row(2, 7, '2026-03-03', 6123, 1801)];

  it('passes when the database holds exactly what was acknowledged', () => {
    expect(checkLedger(ledger(), state(good)).problems).toEqual([]);
  });

  it('reports an acknowledged entry that is missing', () => {
    expect(checkLedger(ledger(), state([good[0]!])).problems).toEqual(['entry 2 was acknowledged but is missing']);
  });

  it('reports an entry that kept its values from before an acknowledged update', () => {
    const stale = [good[0]!, row(2, 7, '2026-03-02', 5000, 1500)];
    expect(checkLedger(ledger(), state(stale)).problems[0]).toMatch(/^entry 2 should be/);
  });

  it('reports an entry whose deletion was acknowledged but which is still there', () => {
    const resurrected = [...good, row(3, 8, '2026-03-04', 1000, 300)];
    expect(checkLedger(ledger(), state(resurrected)).problems).toEqual([
      'entry 3 was deleted (acknowledged) but is still there',
    ]);
  });

  it('reports totals that drifted from their tables, and a failed integrity check', () => {
    const drifted = state(good, ['counter entries is 3, table has 2']);
    drifted.integrity = '*** in database main ***\nPage 5 is never used';
    expect(checkLedger(ledger(), drifted).problems).toEqual([
      'integrity check: *** in database main ***\nPage 5 is never used',
      'counter entries is 3, table has 2',
    ]);
  });

  it('accepts either state for a write still in flight when the load stopped', () => {
    const l = ledger();
    l.inFlight.set('x', { id: 1, kind: 'update', values: { date: '2026-03-05', distance: 2, time: '00:10:00' } });
    l.inFlight.set('y', { id: 2, kind: 'delete' });
    expect(checkLedger(l, state([row(1, 7, '2026-03-05', 2000, 600)])).problems).toEqual([]);
    expect(checkLedger(l, state(good)).problems).toEqual([]);
  });
});
