/** The personal dashboard, the admin dashboard and the weekly report (CONTRACT.md §3). */
import type { Actor } from '../../../core/permissions.js';
import type { AdminDashboard, Dashboard, WeeklyReport, WeeklyRow } from '../../../core/schemas.js';
import {
  addDays,
  formatDuration,
  isoWeekOf,
  isoWeekStart,
  isoYearBounds,
  paceMinPerKm,
  round2,
  roundKm,
  speedKmh,
  startOfDayInZone,
} from '../../../core/time.js';
import { todayOf, type AppContext } from '../../context.js';
import { requirePermission } from '../../errors.js';
import { everyonesRuns } from '../entries/entries.service.js';
import { countUsers } from '../users/users.service.js';
import { dailyTotals, dateSpan, personalBests } from './stats.repository.js';

const CHART_DAYS = 14;

interface Totals {
  count: number;
  distanceKm: number;
  seconds: number;
}

function sum(days: Totals[]): Totals {
  return days.reduce(
    (acc, d) => ({
      count: acc.count + d.count,
      distanceKm: acc.distanceKm + d.distanceKm,
      seconds: acc.seconds + d.seconds,
    }),
    { count: 0, distanceKm: 0, seconds: 0 },
  );
}

/** The runner's dashboard for their today. */
export async function userDashboard(ctx: AppContext, actor: Actor & { timezone: string }): Promise<Dashboard> {
  const today = todayOf(ctx, actor);
  const weekStart = isoWeekStart(today);
  const weekEnd = addDays(weekStart, 6);
  const chartStart = addDays(today, 1 - CHART_DAYS);
  const [days, bests] = await Promise.all([
    dailyTotals(ctx.db, actor.id, chartStart, weekEnd),
    personalBests(ctx.db, actor.id),
  ]);

  const week = sum(days.filter((d) => d.date >= weekStart && d.date <= weekEnd));
  const hasWeek = week.count > 0 && week.seconds > 0 && week.distanceKm > 0;
  return {
    weekly_count: week.count,
    weekly_avg_speed: hasWeek ? round2(speedKmh(week.distanceKm, week.seconds)) : null,
    weekly_avg_pace: hasWeek ? round2(paceMinPerKm(week.distanceKm, week.seconds)) : null,
    max_speed: bests.maxSpeed,
    max_distance: bests.maxDistanceKm,
    max_time: bests.maxSeconds === null ? null : formatDuration(bests.maxSeconds),
    week_chart: days
      .filter((d) => d.date <= today)
      .map((d) => [
        `${d.date.slice(5, 7)}/${d.date.slice(8, 10)}`,
        round2(speedKmh(d.distanceKm, d.seconds)),
        roundKm(d.distanceKm),
      ]),
  };
}

export async function adminDashboard(ctx: AppContext, actor: Actor & { timezone: string }): Promise<AdminDashboard> {
  requirePermission(actor, { type: 'dashboard.admin' });
  const today = todayOf(ctx, actor);
  const weekStart = startOfDayInZone(isoWeekStart(today), actor.timezone).toISOString();
  const monthStart = startOfDayInZone(`${today.slice(0, 8)}01`, actor.timezone).toISOString();
  const [users, runs] = await Promise.all([countUsers(ctx, [weekStart, monthStart]), everyonesRuns(ctx)]);
  return {
    total_users: users.users,
    new_users_this_week: users.since[0]!,
    new_users_this_month: users.since[1]!,
    total_entries: runs.entries,
    avg_entries_per_user: users.users > 0 ? round2(runs.entries / users.users) : 0,
    fastest_run: runs.fastest,
    longest_run: runs.longest,
  };
}

/** A user's runs grouped by ISO week of one ISO week-numbering year (default: the current one, in their zone). */
export async function weeklyReport(
  ctx: AppContext,
  user: { id: number; timezone: string },
  requestedYear: number | undefined,
): Promise<WeeklyReport> {
  const currentYear = isoWeekOf(todayOf(ctx, user)).year;
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
    total_time: formatDuration(week.seconds),
  }));

  return {
    year,
    min_year: span ? isoWeekOf(span.first).year : currentYear,
    max_year: span ? isoWeekOf(span.last).year : currentYear,
    data: [...oldestFirst].reverse(),
    chart: oldestFirst.map((row) => [row.week, row.avg_speed, row.avg_distance]),
  };
}
