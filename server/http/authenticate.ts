/**
 * Bearer-token authentication, declared per route (never by URL prefix): a route lists
 * `app.requireAuth` as its preHandler. The app decorates itself with the hook, built here
 * from the auth feature's resolver (app.ts), so this layer knows no feature.
 */
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Actor } from '../../core/permissions.js';
import type { Session } from '../context.js';
import { unauthenticated } from '../errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The preHandler that admits only requests with a live token. */
    requireAuth: preHandlerAsyncHookHandler;
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

/** The preHandler for `requireAuth`: resolves the bearer token to a session, or 401. */
export function bearerAuthentication(resolve: (token: string) => Promise<Session | null>): preHandlerAsyncHookHandler {
  return async function requireAuthHook(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = bearerToken(request);
    const session = token ? await resolve(token) : null;
    if (!session) throw unauthenticated();
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
