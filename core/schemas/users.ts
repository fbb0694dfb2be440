/**
 * Users and their sign-in: roles, registration, login, the profile and its preferences, the
 * list of users, and the user in responses.
 */
import { z } from 'zod';
import { EMAIL_PATTERN, INVALID_EMAIL_MESSAGE, PASSWORD_MIN_LENGTH, PASSWORD_MISMATCH_MESSAGE } from '../messages.js';
import { canonicalTimeZone, isValidTimeZone } from '../time.js';
import { DATE_FORMATS, LOCALES, PACE_FORMATS, THEMES, THEME_MESSAGE, UNITS, UNITS_MESSAGE } from '../preferences.js';
import {
  blankToUndefined,
  hasNoControlCharacters,
  isWellFormedText,
  PageQuerySchema,
  pagedSchema,
  requiredText,
} from './fields.js';
import { brokenText, isMissing } from './internal.js';

export const ROLES = ['user', 'manager', 'admin'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

export const NameSchema = requiredText('name');

export const EmailSchema = requiredText('email').pipe(
  z
    .string()
    .toLowerCase()
    .regex(EMAIL_PATTERN, INVALID_EMAIL_MESSAGE)
    // Lower-casing can lengthen a string ("İ" becomes two characters): check the stored form too.
    .max(255, 'The email must not be greater than 255 characters.'),
);

const passwordText = z
  .string({
    error: (issue) => (isMissing(issue.input) ? 'The password field is required.' : 'The password must be a string.'),
  })
  .min(PASSWORD_MIN_LENGTH, `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(128, 'The password must not be greater than 128 characters.');

/** Passwords are never trimmed: spaces are part of them. Empty counts as absent. */
const PasswordSchema = z.preprocess((v) => (v === '' ? undefined : v), passwordText);
const OptionalPasswordSchema = z.preprocess((v) => (v === '' || v === null ? undefined : v), passwordText.optional());
const ConfirmationSchema = z.preprocess(
  (v) => (v === null ? undefined : v),
  z.string({ error: 'The password confirmation must be a string.' }).optional(),
);

/** A preference (§11, §18): absent, blank or null leaves it unchanged. */
const unchangedIfEmpty = (value: unknown) => (value === null ? undefined : blankToUndefined(value));

/** A valid IANA zone, stored in its canonical spelling; blank or null counts as absent (unchanged). */
export const TimeZoneSchema = z.preprocess(
  unchangedIfEmpty,
  z
    .string({ error: 'The timezone must be a valid time zone.' })
    .refine(isValidTimeZone, 'The timezone must be a valid time zone.')
    .transform((zone) => canonicalTimeZone(zone) ?? zone)
    .optional(),
);

// Here rather than with the preferences: the first screen loads those, and never these messages.
export const PACE_FORMAT_MESSAGE = 'The pace_format must be decimal or clock.';
export const DATE_FORMAT_MESSAGE = 'The date_format must be auto, MM/DD/YYYY, DD/MM/YYYY or YYYY-MM-DD.';
export const LOCALE_MESSAGE = 'The locale must be auto, en, de, fr, es, it or nl.';

/** A preference of the user resource: one of `values`; absent, blank or null leaves it unchanged. */
function preference<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  return z.preprocess(unchangedIfEmpty, z.enum(values, { error: message }).optional());
}

const RoleFieldSchema = z.preprocess(
  blankToUndefined,
  z.enum(ROLES, { error: 'The role must be one of user, manager or admin.' }).optional(),
);

function confirmPassword(
  value: { password?: string | undefined; password_confirmation?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (value.password !== undefined && value.password !== value.password_confirmation) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_MISMATCH_MESSAGE });
  }
}

export const RegisterBodySchema = z
  .object({
    name: NameSchema,
    email: EmailSchema,
    password: PasswordSchema,
    password_confirmation: ConfirmationSchema,
    timezone: TimeZoneSchema,
    locale: preference(LOCALES, LOCALE_MESSAGE),
  })
  .superRefine(confirmPassword);
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const LoginBodySchema = z.object({
  email: requiredText('email'),
  /** The code of a single sign-on that waits for this password to link its identity (§21). */
  oidc_link: z.string().max(128).optional(),
  password: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string({
      error: (issue) => (isMissing(issue.input) ? 'The password field is required.' : 'The password must be a string.'),
    }),
  ),
});
export type LoginBody = z.infer<typeof LoginBodySchema>;

/**
 * A heart rate of the profile (CONTRACT.md §14): a whole number of beats per minute within its
 * range, or null to clear it; absent (or blank) = unchanged.
 */
function heartRateField(what: string, min: number, max: number) {
  const message = `The ${what} must be a whole number of beats per minute from ${min} to ${max}.`;
  return z.preprocess(
    (v) => (v === '' ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error: message }).int(message).min(min, message).max(max, message).nullable().optional(),
  );
}

export const UserUpdateBodySchema = z
  .object({
    name: NameSchema,
    email: EmailSchema,
    password: OptionalPasswordSchema,
    password_confirmation: ConfirmationSchema,
    role: RoleFieldSchema,
    timezone: TimeZoneSchema,
    // Preferences (§11, §18): absent, blank or null = unchanged.
    units: preference(UNITS, UNITS_MESSAGE),
    theme: preference(THEMES, THEME_MESSAGE),
    pace_format: preference(PACE_FORMATS, PACE_FORMAT_MESSAGE),
    date_format: preference(DATE_FORMATS, DATE_FORMAT_MESSAGE),
    locale: preference(LOCALES, LOCALE_MESSAGE),
    // The heart-rate profile (§14): absent = unchanged, null clears.
    max_heart_rate: heartRateField('maximum heart rate', 100, 250),
    resting_heart_rate: heartRateField('resting heart rate', 25, 120),
  })
  .superRefine(confirmPassword);
export type UserUpdateBody = z.infer<typeof UserUpdateBodySchema>;

export const UserListQuerySchema = PageQuerySchema.extend({
  query: z.preprocess(
    blankToUndefined,
    z
      .string({ error: 'The query must be a string.' })
      .max(255, 'The query must not be greater than 255 characters.')
      .refine(hasNoControlCharacters, 'The query must not contain control characters.')
      .refine(isWellFormedText, brokenText('query'))
      .optional(),
  ),
});
export type UserListQuery = z.infer<typeof UserListQuerySchema>;

// ---- Responses ----

export const USER_STATUSES = ['active', 'unverified', 'pending'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const UserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: RoleSchema,
  timezone: z.string(),
  units: z.enum(UNITS).describe('Distances shown in km or mi by the web app; the API always speaks km'),
  theme: z.enum(THEMES),
  max_heart_rate: z
    .number()
    .int()
    .nullable()
    .describe('Beats per minute, 100-250: the heart-rate zones of tracked runs'),
  resting_heart_rate: z.number().int().nullable().describe('Beats per minute, 25-120'),
  pace_format: z.enum(PACE_FORMATS).describe('Paces shown as decimal minutes (5.35) or minutes and seconds (5:21)'),
  date_format: z
    .enum(DATE_FORMATS)
    .describe('How the web app writes dates; auto: the short date of the app’s language'),
  locale: z.enum(LOCALES).describe('The web app’s language; auto: the browser’s'),
  status: z
    .enum(USER_STATUSES)
    .describe('active; unverified: the e-mail link not yet followed; pending: waiting for approval (CONTRACT.md §21)'),
  two_factor: z.boolean().describe('Whether sign-in asks for a TOTP code after the password (CONTRACT.md §21)'),
  date: z.string().describe('Creation time, the same as created_at'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type User = z.infer<typeof UserSchema>;

export const UserRefSchema = z.object({ id: z.number().int(), name: z.string() });

export const AuthResponseSchema = z.object({
  user: UserSchema,
  access_token: z.string(),
  token_type: z.literal('Bearer'),
});
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

export const UserEnvelopeSchema = z.object({ user: UserSchema });
export const UsersEnvelopeSchema = z.object({ users: pagedSchema(UserSchema) });

// ---- Accounts a self-hoster can leave alone (CONTRACT.md §21) ----

const TokenFieldSchema = requiredText('token');

export const ForgotBodySchema = z.object({ email: requiredText('email') });
export type ForgotBody = z.infer<typeof ForgotBodySchema>;

export const ResetBodySchema = z
  .object({ token: TokenFieldSchema, password: PasswordSchema, password_confirmation: ConfirmationSchema })
  .superRefine(confirmPassword);
export type ResetBody = z.infer<typeof ResetBodySchema>;

export const LinkTokenBodySchema = z.object({ token: TokenFieldSchema });
export type LinkTokenBody = z.infer<typeof LinkTokenBodySchema>;

export const InvitationBodySchema = z.object({ email: EmailSchema, role: RoleFieldSchema });
export type InvitationBody = z.infer<typeof InvitationBodySchema>;

export const AcceptInvitationBodySchema = z
  .object({
    token: TokenFieldSchema,
    name: NameSchema,
    password: PasswordSchema,
    password_confirmation: ConfirmationSchema,
    timezone: TimeZoneSchema,
    locale: preference(LOCALES, LOCALE_MESSAGE),
  })
  .superRefine(confirmPassword);
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBodySchema>;

/** Registration under the `verify` or `approval` policy: the account, no token, and what comes next. */
export const RegisteredSchema = z.object({ user: UserSchema, message: z.string() });
export type Registered = z.infer<typeof RegisteredSchema>;
export const RegisterResponseSchema = z.union([AuthResponseSchema, RegisteredSchema]);
export type RegisterResponse = z.infer<typeof RegisterResponseSchema>;

export const InvitationSchema = z.object({
  invitation: z.object({ email: z.string(), role: RoleSchema, expires_at: z.string() }),
});
