/**
 * A stored run's row as the API's entry (GET /entry/{id}): the entries repository's mapper, here
 * so that the webhook outbox (webhook-outbox.ts) writes a run exactly as the API answers it.
 */
import type { Selectable } from 'kysely';
import type { Entry, RunKind } from '../../core/schemas.js';
import { formatDuration, paceMinPerKm, round2, speedKmh } from '../../core/time.js';
import type { EntriesTable } from './schema.js';

export type EntryRow = Selectable<EntriesTable>;

export const wholeOrNull = (value: number | null | undefined) =>
  value === null || value === undefined ? null : Number(value);

export function toEntry(row: EntryRow): Entry {
  const distanceKm = Number(row.distance_m) / 1000;
  const seconds = Number(row.seconds);
  return {
    id: Number(row.id),
    user_id: Number(row.user_id),
    date: row.date,
    distance: distanceKm,
    time: formatDuration(seconds),
    speed: round2(speedKmh(distanceKm, seconds)),
    pace: round2(paceMinPerKm(distanceKm, seconds)),
    title: row.title ?? null,
    notes: row.notes ?? null,
    kind: (row.kind as RunKind | null) ?? null,
    effort: wholeOrNull(row.effort),
    shoe_id: wholeOrNull(row.shoe_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
    has_track: Number(row.has_track) === 1,
    elevation_gain: wholeOrNull(row.elevation_gain),
    elevation_loss: wholeOrNull(row.elevation_loss),
    avg_heart_rate: wholeOrNull(row.avg_heart_rate),
    max_heart_rate: wholeOrNull(row.max_heart_rate),
    avg_cadence: wholeOrNull(row.avg_cadence),
  };
}
