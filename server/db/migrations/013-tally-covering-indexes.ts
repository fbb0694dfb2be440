/**
 * SQLite: the buckets the deep pages seek through read from their index alone. A deep page
 * of everyone's runs reads the months, then one month's days, then one day's blocks, newest
 * first (tallies.ts seekRun), a deep page of users the months, days and hours of sign-ups;
 * with `n` in the index a step no longer looks up the row.
 * PostgreSQL answers that seek in one statement and keeps its indexes.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
export const statements = {
  sqlite: [
    `create index entry_all_months_cover on entry_all_months (month, n)`,
    `create index entry_days_cover on entry_days (date, n)`,
    `create index entry_blocks_cover on entry_blocks (date, block, n)`,
    `create index user_months_cover on user_months (month, n)`,
    `create index user_days_cover on user_days (day, n)`,
    `create index user_hours_cover on user_hours (hour, n)`,
  ],
  postgres: [],
};
