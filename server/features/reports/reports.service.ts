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

  // Days come oldest first, so each week's days are next to each other.
  const weeks: { monday: string; count: number; distanceKm: number; seconds: number }[] = [];
  for (const day of days) {
    const monday = isoWeekStart(day.date);
    let week = weeks[weeks.length - 1];
    if (week?.monday !== monday) {
      week = { monday, count: 0, distanceKm: 0, seconds: 0 };
      weeks.push(week);
    }
    week.count += day.count;
    week.distanceKm += day.distanceKm;
    week.seconds += day.seconds;
  }

  const oldestFirst: WeeklyRow[] = weeks.map((week) => ({
    week: isoWeekOf(week.monday).week,
    week_start: week.monday,
    week_end: addDays(week.monday, 6),
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
