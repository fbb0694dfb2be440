/** What the server tells the web app about itself before anyone signs in. */
import { z } from 'zod';

export const AppConfigSchema = z.object({
  demo_mode: z.boolean(),
  demo_login: z.object({ email: z.string(), password: z.string() }).nullable(),
  /** The map's tiles (CONTRACT.md §14): a `{z}/{x}/{y}` URL template and its attribution, or null for none. */
  map: z.object({ tile_url: z.string(), attribution: z.string() }).nullable(),
  source_url: z.string().nullable().describe("The product's source code (SOURCE_URL or package.json repository)"),
});
export type AppConfig = z.infer<typeof AppConfigSchema>;
