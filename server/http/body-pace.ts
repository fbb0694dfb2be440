/**
 * A request body must keep coming. Node ends a request whose headers take too long, but not
 * one whose body arrives a byte every few seconds: such a request would hold its connection
 * for as long as its sender likes (hundreds of them, a few bytes a minute each). Once a
 * request has had `graceMs`, its body must have come at `minBytesPerSecond` on average since
 * it began, or it is answered 408 and its connection closed. A real upload, even over a slow
 * line, sends far faster; the check looks only at bytes read from the socket, so it costs a
 * timer per request that has a body.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { clientErrorHandler } from './error-handler.js';

export interface BodyPace {
  graceMs: number;
  minBytesPerSecond: number;
}

const hasBody = (headers: IncomingHttpHeaders) =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

const tooSlow = Object.assign(new Error('The request body arrived too slowly.'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });

export function installBodyPace(app: FastifyInstance, pace: BodyPace): void {
  app.addHook('onRequest', (request, reply, done) => {
    const req = request.raw;
    const socket = req.socket as typeof req.socket | undefined;
    // Injected requests (tests) have no real socket, and their bodies are there at once.
    if (req.complete || !hasBody(req.headers) || typeof socket?.bytesRead !== 'number') return done();
    const readBefore = socket.bytesRead;
    const started = performance.now();
    const timer = setInterval(
      () => {
        if (req.complete || socket.destroyed) return clearInterval(timer);
        const elapsed = performance.now() - started;
        if (elapsed < pace.graceMs) return;
        if (socket.bytesRead - readBefore >= (pace.minBytesPerSecond * elapsed) / 1000) return;
        clearInterval(timer);
        request.log.info({ bytes: socket.bytesRead - readBefore, ms: Math.round(elapsed) }, 'request body too slow');
        // A 408 in the contract's shape when nothing was answered yet; the connection is closed either way.
        if (reply.raw.headersSent) socket.destroy();
        else clientErrorHandler(tooSlow, socket);
      },
      Math.max(50, Math.min(1000, pace.graceMs / 4)),
    );
    timer.unref();
    const stop = () => clearInterval(timer);
    req.once('end', stop);
    req.once('close', stop);
    done();
  });
}
