/** Goals (CONTRACT.md §11): a runner's weekly, monthly and yearly targets. */
export const statements = {
  sqlite: [
    `create table "goals" ("id" integer primary key autoincrement, "user_id" integer not null references "users" ("id") on delete cascade, "period" varchar(8) not null, "metric" varchar(8) not null, "target" double precision not null, "created_at" varchar(32) not null, "updated_at" varchar(32) not null)`,
    `create index "goals_user_idx" on "goals" ("user_id", "id")`,
  ],
  postgres: [
    `create table "goals" ("id" serial primary key, "user_id" integer not null references "users" ("id") on delete cascade, "period" varchar(8) not null, "metric" varchar(8) not null, "target" double precision not null, "created_at" varchar(32) not null, "updated_at" varchar(32) not null)`,
    `create index "goals_user_idx" on "goals" ("user_id", "id")`,
  ],
};
