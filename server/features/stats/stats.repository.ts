/** SQL of the statistics: a runner's days, best results and span of dates, read from the runs' own indexes. */
import { round2, speedKmh } from '../../../core/time.js';
import { compiled } from '../../db/compiled.js';
import type { Executor } from '../../db/schema.js';
import { shown } from '../../db/staged.js';

/**
 * A user's runs between two dates, in the order of the (user_id, date, id) index. Days are
 * summed below: SQLite's GROUP BY costs more per row than the adding it does.
 */
const runsBetween = compiled<{ userId: number; from: string; to: string }>()((db, param) =>
  db
    .selectFrom('entries')
    .select(['date', 'distance_m', 'seconds'])
    .where('user_id', '=', param('userId'))
    .where(shown('staged'))
    .where('date', '>=', param('from'))
    .where('date', '<=', param('to'))
    .orderBy('date', 'asc')
    .orderBy('id', 'asc'),
);

export interface DayTotals {
  date: string;
  count: number;
  distanceKm: number;
  seconds: number;
}

/** Per-day totals of a user's runs between two dates (inclusive), oldest first. */
export async function dailyTotals(db: Executor, userId: number, from: string, to: string): Promise<DayTotals[]> {
  const rows = await runsBetween(db, { userId, from, to });
  const days: DayTotals[] = [];
  let day: DayTotals | undefined;
  let metres = 0;
  for (const row of rows) {
    if (day?.date !== row.date) {
      if (day) day.distanceKm = metres / 1000;
      day = { date: row.date, count: 0, distanceKm: 0, seconds: 0 };
      days.push(day);
      metres = 0;
    }
    day.count += 1;
    metres += Number(row.distance_m);
    day.seconds += Number(row.seconds);
  }
  if (day) day.distanceKm = metres / 1000;
  return days;
}

/** One statement, each value read from the top of its own index. */
const bests = compiled<{ userId: number }>()((db, param) => {
  const own = () => db.selectFrom('entries').where('user_id', '=', param('userId')).where(shown('staged')).limit(1);
  return db.selectNoFrom([
    own().select('distance_m').orderBy('speed', 'desc').as('fastest_distance_m'),
    own().select('seconds').orderBy('speed', 'desc').as('fastest_seconds'),
    own().select('distance_m').orderBy('distance_m', 'desc').as('max_distance_m'),
    own().select('seconds').orderBy('seconds', 'desc').as('max_seconds'),
  ]);
});

/** A user's best results. */
export async function personalBests(
  db: Executor,
  userId: number,
): Promise<{ maxSpeed: number | null; maxDistanceKm: number | null; maxSeconds: number | null }> {
  const [row] = await bests(db, { userId });
  const present = (value: unknown) => value !== null && value !== undefined;
  return {
    maxSpeed:
      row && present(row.fastest_distance_m) && present(row.fastest_seconds)
        ? round2(speedKmh(Number(row.fastest_distance_m) / 1000, Number(row.fastest_seconds)))
        : null,
    maxDistanceKm: row && present(row.max_distance_m) ? Number(row.max_distance_m) / 1000 : null,
    maxSeconds: row && present(row.max_seconds) ? Number(row.max_seconds) : null,
  };
}

const span = compiled<{ userId: number }>()((db, param) => {
  const own = () =>
    db.selectFrom('entries').select('date').where('user_id', '=', param('userId')).where(shown('staged')).limit(1);
  return db.selectNoFrom([own().orderBy('date', 'asc').as('first'), own().orderBy('date', 'desc').as('last')]);
});

/** The first and last date of a user's runs. */
export async function dateSpan(db: Executor, userId: number): Promise<{ first: string; last: string } | null> {
  const [row] = await span(db, { userId });
  return row?.first && row.last ? { first: row.first, last: row.last } : null;
}
