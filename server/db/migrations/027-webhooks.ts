/**
 * Webhooks (CONTRACT.md §20, decision 046): a runner's receivers of run events, at most five, and
 * the outbox of their deliveries, written in the transaction of the run's change so that none is
 * lost by a stop. `seq` orders one webhook's deliveries as their changes were written; `next_at`
 * is when a delivery may go ('' = at once); `sending_until` is the lease of the one instance
 * that sends a webhook's deliveries (in order, one at a time). A webhook keeps the outcome of its
 * last finished delivery. Removed with its user; a delivery with its webhook.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const common = [
  `create index webhooks_user_idx on webhooks (user_id)`,
  `create unique index webhook_deliveries_id_idx on webhook_deliveries (delivery_id)`,
  `create index webhook_deliveries_due_idx on webhook_deliveries (next_at, seq)`,
  `create index webhook_deliveries_webhook_idx on webhook_deliveries (webhook_id, seq)`,
];

const webhookColumns = `user_id integer not null references users (id) on delete cascade, url varchar(2000) not null, events varchar(64) not null, secret varchar(64) not null, created_at varchar(32) not null, sending_until varchar(32), last_at varchar(32), last_status integer, last_error varchar(500)`;
const deliveryColumns = `delivery_id varchar(36) not null, webhook_id integer not null references webhooks (id) on delete cascade, event varchar(16) not null, body text not null, attempts integer not null default 0, next_at varchar(32) not null, last_at varchar(32), last_status integer, last_error varchar(500)`;

export const statements = {
  sqlite: [
    `create table webhooks (id integer primary key autoincrement, ${webhookColumns})`,
    `create table webhook_deliveries (seq integer primary key autoincrement, ${deliveryColumns})`,
    ...common,
  ],
  postgres: [
    `create table webhooks (id serial primary key, ${webhookColumns})`,
    `create table webhook_deliveries (seq bigserial primary key, ${deliveryColumns})`,
    ...common,
  ],
};
