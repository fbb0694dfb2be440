/** The weekly report: a user's runs grouped by ISO week of one ISO week-numbering year. */
import type { WeeklyReport, WeeklyRow } from '../../../core/schemas.js';
import {
  addDays,
  dateInZone,
  isoWeekOf,
  isoWeekStart,
  isoYearBounds,
  round2,
  roundKm,
  speedKmh,
} from '../../../core/time.js';
import type { AppContext } from '../../context.js';
import { dailyTotals, dateSpan } from '../entries/entries.repository.js';

export async function weeklyReport(
  ctx: AppContext,
  user: { id: number; timezone: string },
  requestedYear: number | undefined,
): Promise<WeeklyReport> {
  const currentYear = isoWeekOf(dateInZone(ctx.config.now(), user.timezone)).year;
  const year = requestedYear ?? currentYear;
  const { start, end } = isoYearBounds(year);
  const [days, span] = await Promise.all([dailyTotals(ctx.db, user.id, start, end), dateSpan(ctx.db, user.id)]);

  const weeks = new Map<string, { count: number; distanceKm: number; seconds: number }>();
  for (const day of days) {
    const monday = isoWeekStart(day.date);
    const week = weeks.get(monday) ?? { count: 0, distanceKm: 0, seconds: 0 };
    week.count += day.count;
    week.distanceKm += day.distanceKm;
    week.seconds += day.seconds;
    weeks.set(monday, week);
  }

  const oldestFirst: WeeklyRow[] = [...weeks.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([monday, week]) => ({
      week: isoWeekOf(monday).week,
      week_start: monday,
      week_end: addDays(monday, 6),
      avg_speed: round2(speedKmh(week.distanceKm, week.seconds)),
      avg_distance: round2(week.distanceKm / week.count),
      count: week.count,
      total_distance: roundKm(week.distanceKm),
    }));

  return {
    year,
    min_year: span ? isoWeekOf(span.first).year : currentYear,
    max_year: span ? isoWeekOf(span.last).year : currentYear,
    data: [...oldestFirst].reverse(),
    chart: oldestFirst.map((row) => [row.week, row.avg_speed, row.avg_distance]),
  };
}
