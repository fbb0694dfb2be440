import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema, IdParamsSchema, MessageSchema } from '../../../core/schemas.js';
import { TokenCreateBodySchema, TokenCreatedSchema, TokensEnvelopeSchema } from '../../../core/tokens.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { sessionOf } from '../../http/authenticate.js';
import { createToken, listTokens, revokeToken } from './tokens.service.js';

/** The OpenAPI document marks the routes of this tag as sign-in only (`x-token-scopes`, http/openapi-scopes.ts). */
const SIGN_IN_ONLY = 'Needs a sign-in token: personal API tokens, read or write, get 403 here.';

export function tokensRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const errors = { 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 422: ErrorSchema };

    typed.get('/tokens', {
      onRequest,
      schema: {
        tags: ['tokens'],
        summary: "The caller's personal API tokens, newest first",
        description: SIGN_IN_ONLY,
        security,
        response: { 200: TokensEnvelopeSchema, ...errors },
      },
      handler: async (request) => ({ tokens: await listTokens(ctx, sessionOf(request)) }),
    });

    typed.post('/tokens', {
      onRequest,
      schema: {
        tags: ['tokens'],
        summary: 'Create a personal API token; its plain text is shown this once',
        description: SIGN_IN_ONLY,
        security,
        body: TokenCreateBodySchema,
        response: { 201: TokenCreatedSchema, ...errors },
      },
      handler: async (request, reply) => reply.code(201).send(await createToken(ctx, sessionOf(request), request.body)),
    });

    const revoke = async (request: FastifyRequest, id: number) => {
      await revokeToken(ctx, sessionOf(request), id);
      return { message: 'The token was revoked.' };
    };

    typed.delete('/tokens/:id', {
      onRequest,
      schema: {
        tags: ['tokens'],
        summary: 'Revoke one of your personal API tokens',
        description: SIGN_IN_ONLY,
        security,
        params: IdParamsSchema,
        response: { 200: MessageSchema, ...errors },
      },
      handler: (request) => revoke(request, request.params.id),
    });

    // The web app, like the original client, sends deletes as POST with `_method: DELETE`.
    typed.post('/tokens/:id', {
      onRequest,
      schema: {
        tags: ['tokens'],
        summary: 'Revoke one of your personal API tokens (_method DELETE)',
        description: SIGN_IN_ONLY,
        security,
        params: IdParamsSchema,
        body: z.looseObject({ _method: z.string().optional().describe('DELETE, in any case') }),
        response: { 200: MessageSchema, 405: ErrorSchema, ...errors },
      },
      handler: async (request, reply) => {
        if (String(request.body._method ?? '').toUpperCase() === 'DELETE') return revoke(request, request.params.id);
        reply.header('allow', 'GET, DELETE');
        throw new AppError(405, 'Use _method DELETE to revoke a token with POST.');
      },
    });
  };
}
