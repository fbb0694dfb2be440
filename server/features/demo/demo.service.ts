/**
 * DEMO_MODE: demo accounts with a few months of runs, and a daily reset at 04:00 UTC
 * that deletes every account and recreates the demo ones. The reset is claimed with a
 * conditional update of one row, so exactly one of several instances performs it.
 */
import type { Role } from '../../../core/schemas.js';
import { addDays, dateInZone } from '../../../core/time.js';
import { inTransaction, nowIso, type AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/schema.js';
import { insertRuns, type EntryValues } from '../entries/entries.service.js';
import { accountExists, deleteAllAccounts, hashPassword, insertAccount } from '../users/users.service.js';
import * as jobs from './demo.repository.js';

export const DEMO_PASSWORD = 'demo-password';
export const DEMO_ACCOUNTS: { name: string; email: string; role: Role }[] = [
  { name: 'Demo Admin', email: 'demo.admin@example.com', role: 'admin' },
  { name: 'Demo Manager', email: 'demo.manager@example.com', role: 'manager' },
  { name: 'Demo Runner', email: 'demo.user@example.com', role: 'user' },
];
export const DEMO_LOGIN = { email: DEMO_ACCOUNTS[0]!.email, password: DEMO_PASSWORD };

const JOB = 'demo-reset';
const RESET_HOUR_UTC = 4;
const DEMO_DAYS = 120;

/** The day whose 04:00 UTC reset is the latest one due at `now`. */
export function dueResetDay(now: Date): string {
  const today = now.toISOString().slice(0, 10);
  return now.getUTCHours() >= RESET_HOUR_UTC ? today : addDays(today, -1);
}

/** A small deterministic generator, so demo data looks the same after every reset. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

async function createDemoAccounts(
  db: Executor,
  ctx: AppContext,
  passwordHash: string,
  accounts: typeof DEMO_ACCOUNTS = DEMO_ACCOUNTS,
): Promise<void> {
  const today = dateInZone(ctx.config.now(), 'UTC');
  const createdAt = nowIso(ctx);
  for (const account of accounts) {
    const index = DEMO_ACCOUNTS.indexOf(account);
    const user = await insertAccount(db, { ...account, passwordHash, timezone: 'UTC', isDemo: true, createdAt });
    const random = generator(index + 1);
    const runs: EntryValues[] = [];
    for (let day = DEMO_DAYS; day >= 0; day--) {
      if (random() > 0.4) continue;
      const distanceKm = Math.round((3 + random() * 15) * 100) / 100;
      const paceSeconds = 270 + Math.floor(random() * 120);
      runs.push({ date: addDays(today, -day), distanceKm, seconds: Math.round(distanceKm * paceSeconds) });
    }
    await insertRuns(db, user.id, runs, createdAt);
  }
}

/**
 * Runs at start in demo mode: marks today's reset as done on the first start, and creates
 * every demo account that is missing (all of them the first time), so that the prefilled
 * login always works after a start.
 */
export async function ensureDemo(ctx: AppContext): Promise<void> {
  await jobs.claimFirstRun(ctx.db, JOB, dueResetDay(ctx.config.now()));
  const missing: typeof DEMO_ACCOUNTS = [];
  for (const account of DEMO_ACCOUNTS) {
    if (!(await accountExists(ctx, account.email))) missing.push(account);
  }
  if (missing.length === 0) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  try {
    await inTransaction(ctx, (trx) => createDemoAccounts(trx, ctx, passwordHash, missing));
  } catch (error) {
    // Another instance starting on the same database created them first.
    if (!isUniqueViolation(error)) throw error;
  }
}

/** Resets the demo when today's 04:00 UTC has passed and no instance has done it yet. Returns whether this call did it. */
export async function runDailyResetIfDue(ctx: AppContext): Promise<boolean> {
  const day = dueResetDay(ctx.config.now());
  const done = await jobs.lastRun(ctx.db, JOB);
  if (done === null || done >= day) return false;
  // Hashed before the transaction, so the write lock is held only for the writes.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return inTransaction(ctx, async (trx) => {
    if (!(await jobs.claimRun(trx, JOB, day))) return false;
    await deleteAllAccounts(trx);
    await createDemoAccounts(trx, ctx, passwordHash);
    return true;
  });
}
