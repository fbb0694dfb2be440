import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AdminDashboardSchema,
  AppConfigSchema,
  DashboardSchema,
  EntriesEnvelopeSchema,
  OwnEntriesEnvelopeSchema,
  ErrorSchema,
  UserEnvelopeSchema,
  WeeklyReportSchema,
} from '../../core/schemas.js';
import { responseJsonSchema, serializerCompiler } from './serializer.js';

const compile = (schema: z.ZodType, verify = false) =>
  serializerCompiler({ verify })({ schema, method: 'GET', url: '/test', httpStatus: '200' });

const entry = {
  id: 7,
  user_id: 3,
  date: '2026-11-20',
  distance: 10.5,
  time: '00:52:30',
  speed: 12,
  pace: 5,
  title: 'Morning "tempo" run',
  notes: 'Windy.\nLegs fine.',
  kind: 'workout',
  effort: 7,
  shoe_id: null,
  created_at: '2026-11-20T07:00:00.000Z',
  updated_at: '2026-11-20T07:00:00.000Z',
  has_track: true,
  elevation_gain: 120,
  elevation_loss: 118,
  avg_heart_rate: 151,
  max_heart_rate: 178,
  avg_cadence: null,
};
const user = {
  id: 3,
  name: 'Ada "The Runner" <b>',
  email: 'ada@example.com',
  role: 'user',
  timezone: 'Europe/Paris',
  units: 'mi',
  theme: 'dark',
  max_heart_rate: 190,
  resting_heart_rate: null,
  pace_format: 'clock',
  date_format: 'DD/MM/YYYY',
  locale: 'de',
  status: 'pending',
  two_factor: true,
  date: '2026-01-01T00:00:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
};

describe('response serializer', () => {
  const samples: [string, z.ZodType, unknown][] = [
    ['a user', UserEnvelopeSchema, { user }],
    [
      'a page of my runs with their totals',
      OwnEntriesEnvelopeSchema,
      {
        entries: {
          data: [entry],
          current_page: 1,
          last_page: 1,
          per_page: 15,
          total: 1,
          from: 1,
          to: 1,
          next_page_url: null,
          prev_page_url: null,
        },
        summary: { runs: 1, distance: 10.5, seconds: 3150, avg_pace: null },
      },
    ],
    [
      'a page of runs',
      EntriesEnvelopeSchema,
      {
        entries: {
          data: [
            entry,
            {
              ...entry,
              id: 8,
              distance: 42.195,
              speed: 10.55,
              title: null,
              notes: null,
              kind: null,
              effort: null,
              shoe_id: 4,
            },
          ],
          current_page: 1,
          last_page: 1,
          per_page: 15,
          total: 2,
          from: 1,
          to: 2,
          next_page_url: null,
          prev_page_url: 'http://127.0.0.1/api/v1/entry?page=1',
        },
      },
    ],
    [
      'a dashboard with nulls',
      DashboardSchema,
      {
        weekly_count: 0,
        weekly_avg_speed: null,
        weekly_avg_pace: null,
        max_speed: 12.5,
        max_distance: null,
        max_time: '01:00:00',
        week_chart: [['11/20', 12, 10.5]],
      },
    ],
    [
      'an admin dashboard with and without records',
      AdminDashboardSchema,
      {
        total_users: 2,
        new_users_this_week: 1,
        new_users_this_month: 2,
        total_entries: 1,
        avg_entries_per_user: 0.5,
        fastest_run: { ...entry, user: { id: 3, name: 'Ada' } },
        longest_run: null,
      },
    ],
    [
      'a weekly report',
      WeeklyReportSchema,
      {
        weekly: {
          year: 2026,
          min_year: 2024,
          max_year: 2026,
          data: [
            {
              week: 47,
              week_start: '2026-11-16',
              week_end: '2026-11-22',
              avg_speed: 12.5,
              avg_distance: 10,
              count: 3,
              total_distance: 30,
              total_time: '02:30:00',
            },
          ],
          chart: [[47, 12.5, 30]],
        },
      },
    ],
    ['an error with field messages', ErrorSchema, { message: 'Bad.', errors: { email: ['Taken.', 'Also bad.'] } }],
    ['an error without', ErrorSchema, { message: 'Bad.' }],
    [
      'the app configuration',
      AppConfigSchema,
      {
        demo_mode: true,
        demo_login: { email: 'a@b.c', password: 'pw' },
        map: null,
        source_url: 'https://example.org/rt',
        mail: true,
        signup: 'approval',
        oidc: { name: 'Authelia', only: true },
      },
    ],
  ];

  it.each(samples)('writes %s exactly as its zod schema does', (_name, schema, data) => {
    const parsed = schema.safeParse(data);
    expect(parsed.success, JSON.stringify(parsed.error)).toBe(true);
    expect(compile(schema)(data)).toBe(JSON.stringify(parsed.data));
    expect(compile(schema, true)(data)).toBe(JSON.stringify(parsed.data));
  });

  it('leaves out whatever the schema does not declare, at every depth', () => {
    const text = compile(EntriesEnvelopeSchema)({
      secret: 1,
      entries: {
        data: [{ ...entry, password_hash: '$argon2id$...' }],
        current_page: 1,
        last_page: 1,
        per_page: 15,
        total: 1,
        from: 1,
        to: 1,
        next_page_url: null,
        prev_page_url: null,
        debug: true,
      },
    });
    expect(text).not.toContain('argon2');
    expect(text).not.toContain('secret');
    expect(text).not.toContain('debug');
    expect(JSON.parse(text).entries.data[0]).toEqual(entry);
  });

  it('refuses, when verifying, an answer that does not match its schema', () => {
    const verifying = compile(UserEnvelopeSchema, true);
    expect(() => verifying({ user: { ...user, id: 'three' } })).toThrow(/GET \/test does not match its schema/);
    expect(() => verifying({ user: { ...user, role: 'owner' } })).toThrow(/does not match its schema/);
  });

  it('writes unions as lists of types, so nothing is validated per request', () => {
    const text = JSON.stringify(responseJsonSchema(AdminDashboardSchema));
    expect(text).not.toContain('anyOf');
    expect(responseJsonSchema(DashboardSchema).properties).toMatchObject({ max_time: { type: ['string', 'null'] } });
  });
});
