/**
 * What a runner's tracks take in the database (CONTRACT.md §17: at most 25 KB per hour of samples
 * recorded every second, without the original file): the bytes of `tracks.data`, `analysis`,
 * `hr_summary` and `map_route`, per hour of samples (3,600 samples).
 */
import { sql } from 'kysely';
import { openDatabase } from '../../server/db/connection.js';

/** §17's bound, in bytes per hour of samples. */
export const TRACK_BYTES_PER_HOUR_TARGET = 25_000;

export interface TrackSizes {
  tracks: number;
  hours: number;
  /** All the runner's tracks together: their bytes over their hours. */
  bytesPerHour: number;
  /** The same, part by part. */
  parts: { data: number; analysis: number; hrSummary: number; mapRoute: number };
  /** The most bytes per hour of a track of at least an hour (shorter ones carry the fixed parts over less time). */
  worstHourLongBytesPerHour: number;
}

const SAMPLES_PER_HOUR = 3600;

/** The stored size of the tracks of the runner with e-mail `email`, in the database at `url`. */
export async function trackSizes(url: string, email: string): Promise<TrackSizes> {
  const db = openDatabase(url, { poolSize: 1, backgroundCheckpoints: false });
  try {
    // Bytes, not characters: the JSON and polyline columns are ASCII, the others blobs.
    const bytes = db.dialect === 'postgres' ? sql.raw('octet_length') : sql.raw('length');
    const rows = await db.kysely
      .selectFrom('tracks as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select([
        't.samples',
        sql<number>`${bytes}(t.data)`.as('data'),
        sql<number>`${bytes}(t.analysis)`.as('analysis'),
        sql<number>`coalesce(${bytes}(t.hr_summary), 0)`.as('hr_summary'),
        sql<number>`coalesce(${bytes}(t.map_route), 0)`.as('map_route'),
      ])
      .where('u.email', '=', email)
      .execute();
    const total = { samples: 0, data: 0, analysis: 0, hrSummary: 0, mapRoute: 0 };
    let worst = 0;
    for (const row of rows) {
      const samples = Number(row.samples);
      const parts = [row.data, row.analysis, row.hr_summary, row.map_route].map(Number) as [
        number,
        number,
        number,
        number,
      ];
      total.samples += samples;
      total.data += parts[0];
      total.analysis += parts[1];
      total.hrSummary += parts[2];
      total.mapRoute += parts[3];
      if (samples >= SAMPLES_PER_HOUR) {
        worst = Math.max(worst, (parts.reduce((a, b) => a + b, 0) / samples) * SAMPLES_PER_HOUR);
      }
    }
    const hours = total.samples / SAMPLES_PER_HOUR;
    const perHour = (value: number) => (hours > 0 ? value / hours : Number.NaN);
    return {
      tracks: rows.length,
      hours,
      bytesPerHour: perHour(total.data + total.analysis + total.hrSummary + total.mapRoute),
      parts: {
        data: perHour(total.data),
        analysis: perHour(total.analysis),
        hrSummary: perHour(total.hrSummary),
        mapRoute: perHour(total.mapRoute),
      },
      worstHourLongBytesPerHour: rows.length > 0 ? worst : Number.NaN,
    };
  } finally {
    await db.close();
  }
}

/** "27.1 KB per hour (data 15.9, analysis 9.9, heart rate 0.7, map route 0.6)". */
export function describeTrackSizes(sizes: TrackSizes): string {
  const kb = (bytes: number) => (bytes / 1000).toFixed(1);
  return (
    `${kb(sizes.bytesPerHour)} KB per hour of samples over ${sizes.tracks} tracks (${sizes.hours.toFixed(0)} h): ` +
    `data ${kb(sizes.parts.data)}, analysis ${kb(sizes.parts.analysis)}, heart rate ${kb(sizes.parts.hrSummary)}, ` +
    `map route ${kb(sizes.parts.mapRoute)}; worst track of an hour or more ${kb(sizes.worstHourLongBytesPerHour)} KB per hour`
  );
}
