/**
 * Records from the fastest stretch of a run (CONTRACT.md §15): a tracked run with distances
 * counts for a standard distance through its best effort there, not through its whole distance.
 *
 * - `tracks.efforts`: the track's best efforts, computed when it was stored (JSON
 *   `[{key, ms, start}]`; `[]` when it covers no standard distance; null when it has no distances).
 * - `runner_efforts.source`: `run` (§10: the run counts as a whole) or `best_effort` (§15: its
 *   `seconds` are the effort's elapsed time, and `start_m` where it starts, in metres from the
 *   track's first sample). Existing rows are runs.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const both = [
  `alter table tracks add column efforts text`,
  `alter table runner_efforts add column source varchar(16) not null default 'run'`,
  `alter table runner_efforts add column start_m integer`,
];

export const statements = { sqlite: both, postgres: both };
