/** Webhooks (CONTRACT.md §20): a runner's receivers of run events, signed with their secret. */
import { z } from 'zod';

export const WEBHOOK_EVENTS = ['run.created', 'run.updated', 'run.deleted'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const MAX_WEBHOOKS = 5;
export const MAX_WEBHOOK_URL = 2000;

export const WEBHOOK_URL_SCHEME = 'The url must be an http or https address.';
export const WEBHOOK_URL_CREDENTIALS = 'The url must not contain a user name or password.';
export const WEBHOOK_URL_TOO_LONG = `The url must not be longer than ${MAX_WEBHOOK_URL} characters.`;
export const WEBHOOK_URL_REQUIRED = 'The url field is required.';
export const WEBHOOK_URL_REFUSED = 'The url must not point to a private or local address.';
export const WEBHOOK_EVENTS_INVALID =
  'The events must be a non-empty list of run.created, run.updated and run.deleted.';
export const TOO_MANY_WEBHOOKS = `You can have at most ${MAX_WEBHOOKS} webhooks.`;
export const WEBHOOKS_NEED_WRITE = 'Read-only tokens cannot manage webhooks.';
export const WEBHOOKS_NOT_FOR_DEMO = 'Demo accounts cannot have webhooks.';
/** A delivery's error when the receiver's address is refused (§20); data, kept in English. */
export const ADDRESS_NOT_ALLOWED = 'Address not allowed.';

const isEvent = (value: string): value is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(value);

/** `events`: a list, or (from a form) a comma-separated text; absent or null = all three. */
const eventsField = z.preprocess(
  (value) =>
    value === null || value === undefined
      ? undefined
      : typeof value === 'string'
        ? value
            .split(',')
            .map((part) => part.trim())
            .filter((part) => part !== '')
        : value,
  z
    .array(z.string({ error: WEBHOOK_EVENTS_INVALID }), { error: WEBHOOK_EVENTS_INVALID })
    .min(1, WEBHOOK_EVENTS_INVALID)
    .refine((events) => events.every(isEvent), WEBHOOK_EVENTS_INVALID)
    .transform((events) => WEBHOOK_EVENTS.filter((event) => events.includes(event)))
    .optional(),
);

export const WebhookBodySchema = z.object({
  url: z.string({ error: WEBHOOK_URL_REQUIRED }).trim().min(1, WEBHOOK_URL_REQUIRED),
  events: eventsField,
});
export type WebhookBody = z.infer<typeof WebhookBodySchema>;

export const WebhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  created_at: z.string(),
  last_delivery: z
    .object({
      at: z.string(),
      status: z.number().int().nullable().describe('the HTTP status, or null when no answer came'),
      error: z.string().nullable(),
    })
    .nullable(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

export const WebhooksEnvelopeSchema = z.object({ webhooks: z.array(WebhookSchema) });
export const WebhookCreatedSchema = z.object({
  webhook: WebhookSchema,
  secret: z.string().describe('32 random bytes as hex: shown once, signs every delivery'),
});
