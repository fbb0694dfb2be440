/**
 * Every run as the watch recorded it (CONTRACT.md §13, §14): a run's track and its original file.
 *
 * - `tracks`: one row per tracked run. `data` is the samples, laps and pauses in the codec of
 *   server/features/tracks/codec.ts (columns, delta-encoded, deflated); `analysis` the run page's
 *   answer without its heart-rate section, computed once when the track is stored (deflated JSON);
 *   `hr_summary` what the heart-rate section is computed from for any maximum heart rate (JSON);
 *   `map_route` the route simplified for the map of every run, with its bounds. `max_heart_rate`
 *   (the track's highest) is indexed per runner: the observed maximum of all their tracks.
 * - `track_files`: the original file as uploaded (un-gzipped), when it is at most 32 MiB.
 * - entries gain the track's summary (null without one), users their heart-rate profile.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const common = (blob: string, double: string) => [
  `alter table entries add column has_track integer not null default 0`,
  `alter table entries add column elevation_gain integer`,
  `alter table entries add column elevation_loss integer`,
  `alter table entries add column avg_heart_rate integer`,
  `alter table entries add column max_heart_rate integer`,
  `alter table entries add column avg_cadence integer`,
  `alter table users add column max_heart_rate integer`,
  `alter table users add column resting_heart_rate integer`,
  `create table tracks (
    entry_id integer primary key references entries (id) on delete cascade,
    user_id integer not null references users (id) on delete cascade,
    samples integer not null,
    started_at varchar(32) not null,
    max_heart_rate integer,
    map_route text,
    south ${double},
    west ${double},
    north ${double},
    east ${double},
    hr_summary text,
    analysis ${blob} not null,
    data ${blob} not null
  )`,
  `create index tracks_user_idx on tracks (user_id, entry_id)`,
  `create index tracks_user_max_hr_idx on tracks (user_id, max_heart_rate)`,
  `create table track_files (
    entry_id integer primary key references entries (id) on delete cascade,
    name varchar(255) not null,
    content ${blob} not null
  )`,
];

export const statements = {
  sqlite: common('blob', 'real'),
  postgres: common('bytea', 'double precision'),
};
