/** The inbox folder (CONTRACT.md §20): files dropped in a runner's folder are imported by themselves. */
import { z } from 'zod';

/** A folder key: 24 characters of [a-z0-9]. */
export const INBOX_KEY = /^[a-z0-9]{24}$/;

export const INBOX_STATUSES = ['created', 'duplicate', 'track_added', 'skipped', 'failed'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

export const InboxRowSchema = z.object({
  file: z.string().describe('The name the file had in the folder'),
  source: z.string().describe('The row’s source, as an import names it (the file, a CSV line, an archive member)'),
  status: z.enum(INBOX_STATUSES),
  reason: z.string().nullable().describe('Why, in the request’s language'),
  reason_code: z.string().nullable().describe('The reason as a stable snake_case code, the same in every language'),
  entry_id: z.number().int().nullable(),
  at: z.string().describe('When the file was imported (ISO 8601 UTC)'),
});
export type InboxRow = z.infer<typeof InboxRowSchema>;

export const InboxEnvelopeSchema = z.object({
  inbox: z.object({
    enabled: z.boolean().describe('Whether this server reads inbox folders (INBOX_DIR is set)'),
    folder: z.string().nullable().describe('The folder’s name under INBOX_DIR: the key; null until the first POST'),
    recent: z.array(InboxRowSchema).describe('The 50 newest rows, newest first'),
  }),
});
export type InboxEnvelope = z.infer<typeof InboxEnvelopeSchema>;
