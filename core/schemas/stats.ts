/** The statistics of runs: the dashboards and the weekly report. */
import { z } from 'zod';
import { INTEGER_RE, toNumber } from './fields.js';
import { EntryWithUserSchema } from './entries.js';

export const WeeklyQuerySchema = z.object({
  year: z.preprocess(
    toNumber(INTEGER_RE),
    z
      .number({ error: 'The year must be an integer.' })
      .int('The year must be an integer.')
      .min(1900, 'The year must be at least 1900.')
      .max(2100, 'The year must not be greater than 2100.')
      .optional(),
  ),
});

// ---- Responses ----

/** A chart row: [label, speed, distance]. */
export const ChartRowSchema = z.tuple([z.union([z.string(), z.number()]), z.number(), z.number()]);

export const DashboardSchema = z.object({
  weekly_count: z.number().int(),
  weekly_avg_speed: z.number().nullable(),
  weekly_avg_pace: z.number().nullable(),
  max_speed: z.number().nullable(),
  max_distance: z.number().nullable(),
  max_time: z.string().nullable(),
  week_chart: z.array(z.tuple([z.string(), z.number(), z.number()])),
});
export type Dashboard = z.infer<typeof DashboardSchema>;

export const AdminDashboardSchema = z.object({
  total_users: z.number().int(),
  new_users_this_week: z.number().int(),
  new_users_this_month: z.number().int(),
  total_entries: z.number().int(),
  avg_entries_per_user: z.number(),
  fastest_run: EntryWithUserSchema.nullable(),
  longest_run: EntryWithUserSchema.nullable(),
});
export type AdminDashboard = z.infer<typeof AdminDashboardSchema>;

export const WeeklyRowSchema = z.object({
  week: z.number().int(),
  week_start: z.string(),
  week_end: z.string(),
  avg_speed: z.number(),
  avg_distance: z.number(),
  count: z.number().int(),
  total_distance: z.number(),
  total_time: z.string().describe('HH:MM:SS'),
});
export type WeeklyRow = z.infer<typeof WeeklyRowSchema>;

export const WeeklyReportSchema = z.object({
  weekly: z.object({
    year: z.number().int(),
    min_year: z.number().int(),
    max_year: z.number().int(),
    data: z.array(WeeklyRowSchema),
    chart: z.array(z.tuple([z.number().int(), z.number(), z.number()])),
  }),
});
export type WeeklyReport = z.infer<typeof WeeklyReportSchema>['weekly'];
