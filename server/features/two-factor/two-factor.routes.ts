import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AuthResponseSchema, ErrorSchema, IdParamsSchema, MessageSchema } from '../../../core/schemas.js';
import {
  RecoveryCodesSchema,
  TwoFactorCodeBodySchema,
  TwoFactorDisableBodySchema,
  TwoFactorSetupSchema,
  TwoFactorSignInBodySchema,
  type TwoFactorDisableBody,
} from '../../../core/two-factor.js';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { actorOf, sessionOf } from '../../http/authenticate.js';
import {
  adminReset,
  beginSetup,
  completeChallenge,
  confirmSetup,
  disable,
  TWO_FACTOR_OFF,
} from './two-factor.service.js';

const SIGN_IN_ONLY = 'Needs a sign-in token: personal API tokens get 403 here.';

const isDelete = (body: unknown) =>
  typeof body === 'object' &&
  body !== null &&
  String((body as { _method?: unknown })._method ?? '').toUpperCase() === 'DELETE';

export function twoFactorRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const errors = {
      401: ErrorSchema,
      403: ErrorSchema,
      404: ErrorSchema,
      409: ErrorSchema,
      422: ErrorSchema,
      429: ErrorSchema,
    };

    const turnOff = async (request: FastifyRequest, body: TwoFactorDisableBody) => {
      await disable(ctx, sessionOf(request), body);
      return { message: TWO_FACTOR_OFF };
    };

    typed.post('/user/me/two-factor', {
      onRequest,
      schema: {
        tags: ['two-factor'],
        summary: 'Start turning on two-factor sign-in: a new TOTP secret, not on until confirmed',
        description: `${SIGN_IN_ONLY} Demo accounts get 403. With \`_method: DELETE\` in the body, turns it off instead (see DELETE).`,
        security,
        body: TwoFactorDisableBodySchema,
        response: { 200: TwoFactorSetupSchema.or(MessageSchema), ...errors },
      },
      handler: async (request) =>
        isDelete(request.body) ? turnOff(request, request.body) : beginSetup(ctx, sessionOf(request)),
    });

    typed.post('/user/me/two-factor/confirm', {
      onRequest,
      schema: {
        tags: ['two-factor'],
        summary: 'Turn on two-factor sign-in with a code of the new secret: ten recovery codes, shown once',
        description: SIGN_IN_ONLY,
        security,
        body: TwoFactorCodeBodySchema,
        response: { 200: RecoveryCodesSchema, ...errors },
      },
      handler: (request) => confirmSetup(ctx, sessionOf(request), request.body.code),
    });

    typed.delete('/user/me/two-factor', {
      onRequest,
      schema: {
        tags: ['two-factor'],
        summary: 'Turn off two-factor sign-in, with your password or a current code',
        description: SIGN_IN_ONLY,
        security,
        body: TwoFactorDisableBodySchema,
        response: { 200: MessageSchema, ...errors },
      },
      handler: (request) => turnOff(request, request.body),
    });

    const reset = async (request: FastifyRequest, id: number) => {
      await adminReset(ctx, actorOf(request), sessionOf(request), id);
      return { message: TWO_FACTOR_OFF };
    };

    typed.delete('/user/:id/two-factor', {
      onRequest,
      schema: {
        tags: ['two-factor'],
        summary: 'An admin turns off a user’s two-factor sign-in (a lost device)',
        description: SIGN_IN_ONLY,
        security,
        params: IdParamsSchema,
        response: { 200: MessageSchema, ...errors },
      },
      handler: (request) => reset(request, request.params.id),
    });

    typed.post('/user/:id/two-factor', {
      onRequest,
      schema: {
        tags: ['two-factor'],
        summary: 'The same as DELETE /user/{id}/two-factor, sent with `_method: DELETE`',
        description: SIGN_IN_ONLY,
        security,
        params: IdParamsSchema,
        body: TwoFactorDisableBodySchema,
        response: { 200: MessageSchema, ...errors },
      },
      handler: async (request) => {
        if (!isDelete(request.body)) throw notFound();
        return reset(request, request.params.id);
      },
    });

    typed.post('/auth/two-factor', {
      schema: {
        tags: ['auth'],
        summary: 'The second step of a login: the challenge and a TOTP or recovery code',
        body: TwoFactorSignInBodySchema,
        response: { 200: AuthResponseSchema, 422: ErrorSchema, 429: ErrorSchema },
      },
      handler: (request) => completeChallenge(ctx, request.body),
    });
  };
}
