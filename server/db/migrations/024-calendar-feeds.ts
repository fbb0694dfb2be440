/**
 * The calendar feed (CONTRACT.md §20, decision 042): each user's private key of
 * `/ical/<key>.ics`, one a user at most, made by a POST and replaced by a later one. The key is
 * unique: the feed's request finds its owner by it. Removed with its user.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
const feeds = [
  `create table calendar_feeds (user_id integer primary key references users (id) on delete cascade, feed_key varchar(24) not null, created_at varchar(32) not null)`,
  `create unique index calendar_feeds_key_idx on calendar_feeds (feed_key)`,
];

export const statements = { sqlite: feeds, postgres: feeds };
