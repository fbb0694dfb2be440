/**
 * Small rules a runner asked for (CONTRACT.md §18): each user's pace format (`decimal` or
 * `clock`) and date format (`MM/DD/YYYY`, `DD/MM/YYYY` or `YYYY-MM-DD`), and each shoe's
 * distance before it was tracked here (`start_km`).
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const both = [
  `alter table users add column pace_format varchar(8) not null default 'decimal'`,
  `alter table users add column date_format varchar(10) not null default 'MM/DD/YYYY'`,
  `alter table shoes add column start_km double precision not null default 0`,
];

export const statements = { sqlite: both, postgres: both };
