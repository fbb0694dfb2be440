/** Bearer-token authentication, declared per route (never by URL prefix). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../core/permissions.js';
import type { AppContext } from '../context.js';
import { authenticate, type Session } from '../features/auth/auth.service.js';
import { unauthenticated } from './errors.js';

declare module 'fastify' {
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

/** A preHandler that admits only requests with a live token. */
export function requireAuth(ctx: AppContext) {
  return async function requireAuthHook(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = bearerToken(request);
    const session = token ? await authenticate(ctx, token) : null;
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
