/** Security headers on every response. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The Content-Security-Policy: everything from this origin only, but for the map's tiles
 * (CONTRACT.md §14: the tile servers of MAP_TILE_URL, when there are any). `tileOrigins` is
 * config's `mapTileOrigins`, checked and derived from MAP_TILE_URL at start (config.ts, mapTilesOf).
 */
export function contentSecurityPolicy(tileOrigins: readonly string[]): string {
  const tiles = tileOrigins.map((origin) => ` ${origin}`).join('');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data:${tiles}`,
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export type SecurityHeaders = (request: FastifyRequest, reply: FastifyReply) => void;

/** The headers of an app whose map tiles come from `tileOrigins`; also set on errors raised before routing, which skip the hooks. */
export function securityHeaders(tileOrigins: readonly string[]): SecurityHeaders {
  const policy = contentSecurityPolicy(tileOrigins);
  // The API docs page (Swagger UI) needs inline styles; nothing else is relaxed.
  const docsPolicy = policy.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");
  return (request, reply) => {
    reply.header('content-security-policy', request.url.startsWith('/api/docs') ? docsPolicy : policy);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    // Tile servers' usage policies ask for a Referer (the origin is enough); same-origin requests keep the path.
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  };
}

export function installSecurityHeaders(app: FastifyInstance, set: SecurityHeaders): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    set(request, reply);
    done(null, payload);
  });
}
