/**
 * Routes and segments (CONTRACT.md §22, decision 043), owned by server/features/routes:
 *
 * - `routes`: a runner's route, named, founded by its earliest run (`founder_id`): it keeps its id
 *   and name while that run lasts (deleting the run deletes the route, and its runs regroup).
 * - `route_runs`: each run's route (a run on no route has no row).
 * - `route_owners`: per runner, how many routes they have ever had (the next default name) and
 *   whether their routes are being regrouped (`matching`).
 * - `segments`: a stretch marked on a run, its path (JSON [[lat, lon], ...]) and its bounds, and
 *   whether its efforts are still being looked for (`matching`).
 * - `segment_efforts`: one row per pass of a run over a segment, timed in whole seconds.
 *
 * - `tracks.segments_matched`: 1 once the run has been matched against all its owner's segments
 *   (0 for tracks stored before: the first matching of their owner marks them, against no segment).
 *
 * Candidate runs are found by the bounds every track has had since migration 018 (`tracks.south`,
 * `west`, `north`, `east`, of all its positions): nothing to fill for tracks stored before.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const common = (id: string, double: string) => [
  `alter table tracks add column segments_matched integer not null default 0`,
  `create index tracks_unmatched_idx on tracks (user_id, segments_matched)`,
  `create table routes (
    id ${id},
    user_id integer not null references users (id) on delete cascade,
    founder_id integer not null references entries (id) on delete cascade,
    name varchar(100) not null,
    created_at varchar(32) not null
  )`,
  `create unique index routes_founder_idx on routes (founder_id)`,
  `create index routes_user_idx on routes (user_id, id)`,
  `create table route_runs (
    entry_id integer primary key references entries (id) on delete cascade,
    route_id integer not null references routes (id) on delete cascade,
    user_id integer not null references users (id) on delete cascade
  )`,
  `create index route_runs_route_idx on route_runs (route_id, entry_id)`,
  `create index route_runs_user_idx on route_runs (user_id, route_id)`,
  `create table route_owners (
    user_id integer primary key references users (id) on delete cascade,
    routes_made integer not null default 0,
    matching integer not null default 0
  )`,
  `create table segments (
    id ${id},
    user_id integer not null references users (id) on delete cascade,
    entry_id integer not null,
    name varchar(100) not null,
    start_m ${double} not null,
    end_m ${double} not null,
    distance_m ${double} not null,
    path text not null,
    south ${double} not null,
    west ${double} not null,
    north ${double} not null,
    east ${double} not null,
    matching integer not null default 1,
    created_at varchar(32) not null,
    updated_at varchar(32) not null
  )`,
  `create index segments_user_idx on segments (user_id, id)`,
  `create table segment_efforts (
    id ${id},
    segment_id integer not null references segments (id) on delete cascade,
    entry_id integer not null references entries (id) on delete cascade,
    user_id integer not null references users (id) on delete cascade,
    seconds integer not null,
    start_sample integer not null
  )`,
  `create index segment_efforts_segment_idx on segment_efforts (segment_id, seconds, entry_id)`,
  `create index segment_efforts_entry_idx on segment_efforts (entry_id, segment_id)`,
];

export const statements = {
  sqlite: common('integer primary key autoincrement', 'real'),
  postgres: common('serial primary key', 'double precision'),
};
