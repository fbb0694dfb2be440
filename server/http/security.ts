/** Security headers on every response. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The API docs page (Swagger UI) needs inline styles; nothing else is relaxed. */
const DOCS_POLICY = CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

/** Sets the headers; also used for errors raised before routing, which skip the hooks. */
export function setSecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('content-security-policy', request.url.startsWith('/api/docs') ? DOCS_POLICY : CONTENT_SECURITY_POLICY);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
  if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
}

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    setSecurityHeaders(request, reply);
    done(null, payload);
  });
}
