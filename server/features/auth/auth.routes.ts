import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorSchema,
  LoginBodySchema,
  MessageSchema,
  RegisterBodySchema,
  RegisterResponseSchema,
} from '../../../core/schemas.js';
import { LoginAnswerSchema } from '../../../core/two-factor.js';
import type { AppContext } from '../../context.js';
import { sessionOf } from '../../http/authenticate.js';
import { requestLanguage } from '../../http/language.js';
import { login, logout, register } from './auth.service.js';

export function authRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const errors = { 401: ErrorSchema, 403: ErrorSchema, 422: ErrorSchema, 429: ErrorSchema };

    typed.post('/auth/register', {
      schema: {
        tags: ['auth'],
        summary:
          'Create an account (role user) and sign in; under SIGNUP=verify or approval the account waits (no token), under closed a 403',
        body: RegisterBodySchema,
        response: { 201: RegisterResponseSchema, ...errors },
      },
      handler: async (request, reply) =>
        reply.code(201).send(await register(ctx, request.body, request.ip, requestLanguage(request))),
      // A verification mail queued by the registration leaves once the answer is out.
      onResponse: async () => ctx.memory.mailer?.kick(),
    });

    typed.post('/auth/login', {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        description:
          'When the user has two-factor sign-in on, answers `{two_factor_required: true, challenge}` without a token: send the challenge with a code to POST /auth/two-factor.',
        body: LoginBodySchema,
        response: { 200: LoginAnswerSchema, ...errors },
      },
      handler: (request) => login(ctx, request.body, request.ip),
    });

    typed.post('/auth/logout', {
      onRequest: app.requireAuth,
      schema: {
        tags: ['auth'],
        summary: 'Revoke the sign-in token of this request (a personal API token stays valid)',
        security: [{ bearerAuth: [] }],
        response: { 200: MessageSchema, 401: ErrorSchema },
      },
      handler: async (request) => {
        await logout(ctx, sessionOf(request));
        return { message: 'You logged out.' };
      },
    });
  };
}
