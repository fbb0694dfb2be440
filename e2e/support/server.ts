/**
 * Starts the built app (`node dist/server/main.js`) on a free loopback port with a fresh
 * SQLite file (scripts/support: one scratch database, one server process), waits until
 * /api/health answers, and stops it and removes the file afterwards.
 */
import { scratchDatabase } from '../../scripts/support/scratch-database.js';
import { BUILT_SERVER, startServer as startProcess } from '../../scripts/support/server-process.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'admin-password-123';

export interface RunningServer {
  baseUrl: string;
  stop: () => Promise<void>;
}

/** `port`: a port of the caller's (a journey whose PUBLIC_URL must be known before the server starts). */
export async function startServer(env: Record<string, string> = {}, port?: number): Promise<RunningServer> {
  const database = await scratchDatabase({ name: 'e2e' });
  try {
    const server = await startProcess({
      entry: BUILT_SERVER,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
        ADMIN_EMAIL,
        ADMIN_PASSWORD,
        DEMO_MODE: '',
        ...env,
      },
      ...(port ? { port } : {}),
      timeoutMs: 30_000,
      graceMs: 5000,
      outputLimit: 20_000,
    });
    return {
      baseUrl: server.baseUrl,
      async stop() {
        try {
          await server.stop();
        } finally {
          await database.drop();
        }
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}
