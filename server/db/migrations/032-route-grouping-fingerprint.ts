/**
 * Routes grouped a run at a time (decision 052): per runner, the tracked runs their stored routes
 * were grouped from, as a count (the first `grouped_count` runs in (date, id) order) and a SHA-256
 * of what grouping read of them (`grouped_hash`). When those runs are still the first ones,
 * unchanged, the runs after them are taken into the stored routes instead of grouping every run
 * again. Null (every runner's row before this step) groups from the start, once.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const both = [
  `alter table route_owners add column grouped_count integer`,
  `alter table route_owners add column grouped_hash varchar(64)`,
];

export const statements = { sqlite: both, postgres: both };
