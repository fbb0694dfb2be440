/**
 * Bearer-token authentication, declared per route (never by URL prefix): a route lists
 * `onRequest: app.requireAuth`. It runs first, before the body is read or anything is
 * validated, so a request without a live token gets 401 whatever else is wrong with it.
 * The app decorates itself with the hook, built here from the auth feature's resolver
 * (app.ts), so this layer knows no feature.
 */
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Actor } from '../../core/permissions.js';
import type { Session } from '../context.js';
import { forbidden, unauthenticated } from '../errors.js';

export const READ_ONLY_TOKEN = 'This token may only read: it can make GET requests only.';

declare module 'fastify' {
  interface FastifyInstance {
    /** The onRequest hook that admits only requests with a live token. */
    requireAuth: onRequestAsyncHookHandler;
  }
  interface FastifyRequest {
    session: Session | null;
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** The hook for `requireAuth`: resolves the bearer token to a session, or 401. */
export function bearerAuthentication(resolve: (token: string) => Promise<Session | null>): onRequestAsyncHookHandler {
  return async function requireAuthHook(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = bearerToken(request);
    const session = token ? await resolve(token) : null;
    if (!session) throw unauthenticated();
    // A read-only personal API token (CONTRACT.md §11) reads and nothing else.
    if (session.scope === 'read' && request.method !== 'GET' && request.method !== 'HEAD') {
      throw forbidden(READ_ONLY_TOKEN);
    }
    request.session = session;
  };
}

/** The signed-in session of a route guarded by requireAuth. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw unauthenticated();
  return request.session;
}

export function actorOf(request: FastifyRequest): Actor & { timezone: string } {
  const { user } = sessionOf(request);
  return { id: user.id, role: user.role, timezone: user.timezone };
}
