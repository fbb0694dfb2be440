/**
 * runner_efforts: one row per run that counts for a standard distance (CONTRACT.md §10: D <= run
 * distance <= 1.03 x D), with the run's date, metres and seconds. Records and their progression are
 * read from it instead of from every run. Triggers (migrations.ts, '003-insights') keep it exact under
 * every write of a run, cascades included; the seed fills it with one statement.
 */
import { STANDARD_DISTANCES, countingMetres } from '../../core/insights.js';

/** The key of the standard distance a run (`row`) counts for, or null: whole-metre bounds, exact. */
export function effortKeySql(row: string): string {
  const cases = STANDARD_DISTANCES.map((d) => {
    const { min, max } = countingMetres(d);
    return `when ${row}.distance_m between ${min} and ${max} then '${d.key}'`;
  });
  return `case ${cases.join(' ')} end`;
}

/** Adds a run (`new`) to runner_efforts when it counts for a standard distance. */
export function addEffortSql(row: 'new'): string {
  return `insert into runner_efforts (entry_id, user_id, key, date, distance_m, seconds)
    select ${row}.id, ${row}.user_id, s.k, ${row}.date, ${row}.distance_m, ${row}.seconds
    from (select ${effortKeySql(row)} as k) as s where s.k is not null;`;
}

export function removeEffortSql(row: 'old'): string {
  return `delete from runner_efforts where entry_id = ${row}.id;`;
}

/** Fills runner_efforts for the runs from id `firstId` on (a migration of existing runs, the seed). */
export function backfillEffortsSql(firstId: number): string {
  return `insert into runner_efforts (entry_id, user_id, key, date, distance_m, seconds)
    select e.id, e.user_id, ${effortKeySql('e')}, e.date, e.distance_m, e.seconds
    from entries e where e.id >= ${Math.trunc(firstId)} and ${effortKeySql('e')} is not null`;
}

/** The columns whose change moves a run in or out of runner_efforts. */
export const EFFORT_COLUMNS = 'date, user_id, distance_m, seconds';
