/**
 * Imports stored in short transactions and shown at once (decision 037). A run stored by an
 * import that has not landed yet carries the import's id in `staged`; it is seen by no read until
 * the import's row leaves `staged_imports`, one statement in the import's last transaction. The
 * partial indexes find an import's rows to clear their mark afterwards, or to delete them when
 * the import fails or the server stopped during it.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const marks = [
  `alter table entries add column staged integer`,
  `alter table runner_efforts add column staged integer`,
  `create index entries_staged_idx on entries (staged) where staged is not null`,
  `create index runner_efforts_staged_idx on runner_efforts (staged) where staged is not null`,
];

export const statements = {
  sqlite: [
    `create table staged_imports (id integer primary key autoincrement, user_id integer not null references users (id) on delete cascade, started_at varchar(32) not null)`,
    ...marks,
  ],
  postgres: [
    `create table staged_imports (id serial primary key, user_id integer not null references users (id) on delete cascade, started_at varchar(32) not null)`,
    ...marks,
  ],
};
