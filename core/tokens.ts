/** Personal API tokens (CONTRACT.md §11): what a runner creates to call the API from a script. */
import { z } from 'zod';

export const TOKEN_SCOPES = ['read', 'write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
export const MAX_TOKEN_NAME_LENGTH = 100;
export const MAX_TOKEN_DAYS = 365;

const trimmedOrAbsent = (value: unknown) => {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
};

const DAYS_MESSAGE = `The expires_in_days must be a whole number from 1 to ${MAX_TOKEN_DAYS}.`;

export const TokenCreateBodySchema = z.object({
  name: z.preprocess(
    trimmedOrAbsent,
    z
      .string({
        error: (issue) => (issue.input == null ? 'The name field is required.' : 'The name must be a string.'),
      })
      .max(MAX_TOKEN_NAME_LENGTH, `The name must not be greater than ${MAX_TOKEN_NAME_LENGTH} characters.`)
      // eslint-disable-next-line no-control-regex
      .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'The name must not contain control characters.'),
  ),
  scope: z.preprocess(
    trimmedOrAbsent,
    z.enum(TOKEN_SCOPES, {
      error: (issue) => (issue.input == null ? 'The scope field is required.' : 'The scope must be read or write.'),
    }),
  ),
  expires_in_days: z.preprocess(
    (value) => {
      const text = trimmedOrAbsent(value);
      return typeof text === 'string' && /^[+-]?\d+$/.test(text) ? Number(text) : (text ?? undefined);
    },
    z
      .number({ error: DAYS_MESSAGE })
      .int(DAYS_MESSAGE)
      .min(1, DAYS_MESSAGE)
      .max(MAX_TOKEN_DAYS, DAYS_MESSAGE)
      .optional()
      .describe('Days until the token expires; absent (or null) = never'),
  ),
});
export type TokenCreateBody = z.infer<typeof TokenCreateBodySchema>;

export const PersonalTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: z.enum(TOKEN_SCOPES),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type PersonalToken = z.infer<typeof PersonalTokenSchema>;

export const TokensEnvelopeSchema = z.object({ tokens: z.array(PersonalTokenSchema) });
export const TokenCreatedSchema = z.object({
  token: PersonalTokenSchema,
  plain_text_token: z.string().describe('The token itself, shown this once; send it as Authorization: Bearer'),
});
export type TokenCreated = z.infer<typeof TokenCreatedSchema>;
