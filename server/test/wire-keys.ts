/** The wire shapes the API tests pin: the keys of a user, an entry and a page, and a UTC instant. */
import { expect } from 'vitest';

/** Sorted keys of an object, for pinning wire shapes. */
export function keysOf(value: unknown): string[] {
  expect(value).toBeTypeOf('object');
  expect(value).not.toBeNull();
  return Object.keys(value as object).sort();
}

export const USER_KEYS = [
  'created_at',
  'date',
  'date_format',
  'email',
  'id',
  'locale',
  'max_heart_rate',
  'name',
  'pace_format',
  'resting_heart_rate',
  'role',
  'status',
  'theme',
  'timezone',
  'two_factor',
  'units',
  'updated_at',
];
export const ENTRY_KEYS = [
  'avg_cadence',
  'avg_heart_rate',
  'created_at',
  'date',
  'distance',
  'effort',
  'elevation_gain',
  'elevation_loss',
  'has_track',
  'id',
  'kind',
  'max_heart_rate',
  'notes',
  'pace',
  'shoe_id',
  'speed',
  'time',
  'title',
  'updated_at',
  'user_id',
];
export const PAGED_KEYS = [
  'current_page',
  'data',
  'from',
  'last_page',
  'next_page_url',
  'per_page',
  'prev_page_url',
  'to',
  'total',
];
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;
