/** What the server tells the web app about itself before anyone signs in. */
import { z } from 'zod';

export const AppConfigSchema = z.object({
  demo_mode: z.boolean(),
  demo_login: z.object({ email: z.string(), password: z.string() }).nullable(),
  /** The map's tiles (CONTRACT.md §14): a `{z}/{x}/{y}` URL template and its attribution, or null for none. */
  map: z.object({ tile_url: z.string(), attribution: z.string() }).nullable(),
  source_url: z.string().nullable().describe("The product's source code (SOURCE_URL or package.json repository)"),
  /** CONTRACT.md §21: whether mail is on (SMTP_URL, MAIL_FROM and PUBLIC_URL). */
  mail: z.boolean(),
  /** The sign-up policy (SIGNUP). */
  signup: z.enum(['open', 'verify', 'approval', 'closed']),
  /**
   * Single sign-on's button, or null without it. `only` (OIDC_ONLY: the login page hides the password
   * form, admins still use it) is there only when true, so that the answer is §21's `{name}` otherwise.
   */
  oidc: z.object({ name: z.string(), only: z.literal(true).optional() }).nullable(),
});
export type AppConfig = z.infer<typeof AppConfigSchema>;
