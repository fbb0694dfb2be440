import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OidcExchangeBodySchema } from '../../../core/oidc.js';
import { ErrorSchema } from '../../../core/schemas.js';
import { LoginAnswerSchema } from '../../../core/two-factor.js';
import type { AppContext } from '../../context.js';
import { BROWSER_COOKIE, callback, exchange, start, type Redirect } from './oidc.service.js';

const COOKIE_PATH = '/api/v1/auth/oidc';

function browserCookie(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === BROWSER_COOKIE) return value.join('=');
  }
  return undefined;
}

function redirect(ctx: AppContext, reply: FastifyReply, to: Redirect) {
  const secure = ctx.config.publicUrl?.startsWith('https:') ? '; Secure' : '';
  const cookie =
    to.browser === null
      ? `${BROWSER_COOKIE}=; Path=${COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure}`
      : `${BROWSER_COOKIE}=${to.browser}; Path=${COOKIE_PATH}; Max-Age=600; HttpOnly; SameSite=Lax${secure}`;
  return reply.header('set-cookie', cookie).header('cache-control', 'no-store').redirect(to.location, 302);
}

/** Single sign-on (CONTRACT.md §21, decision 051): 404 on every call while it is off. */
export function oidcRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();

    typed.get('/auth/oidc/start', {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with the OpenID provider: a redirect to it (authorization code with PKCE, state and nonce)',
        response: { 404: ErrorSchema },
      },
      handler: async (request, reply) =>
        redirect(
          ctx,
          reply,
          await start(ctx, (error) =>
            request.log.warn({ err: error }, 'single sign-on: the provider cannot be discovered'),
          ),
        ),
    });

    typed.get('/auth/oidc/callback', {
      schema: {
        tags: ['auth'],
        summary:
          'Where the provider sends the browser back: a redirect to /login#oidc=<code> (one use, 60 s), or /login#oidc_error=<reason>',
        querystring: z.record(z.string(), z.unknown()),
        response: { 404: ErrorSchema },
      },
      handler: async (request, reply) => {
        const url = request.raw.url ?? '';
        const rawQuery = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
        const log = (error: unknown) =>
          request.log.warn({ err: error }, "single sign-on: the provider's answer was refused");
        return redirect(ctx, reply, await callback(ctx, request.query, rawQuery, browserCookie(request), log));
      },
    });

    typed.post('/auth/oidc/exchange', {
      schema: {
        tags: ['auth'],
        summary: "The callback's code for a login answer (a token, or the two-factor challenge)",
        body: OidcExchangeBodySchema,
        response: { 200: LoginAnswerSchema, 403: ErrorSchema, 404: ErrorSchema, 422: ErrorSchema },
      },
      handler: (request) => exchange(ctx, request.body),
    });
  };
}
