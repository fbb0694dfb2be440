import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AcceptInvitationBodySchema,
  AuthResponseSchema,
  ErrorSchema,
  ForgotBodySchema,
  IdParamsSchema,
  InvitationBodySchema,
  InvitationSchema,
  LinkTokenBodySchema,
  MessageSchema,
  ResetBodySchema,
  UserEnvelopeSchema,
  UserSchema,
} from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/authenticate.js';
import { requestLanguage } from '../../http/language.js';
import {
  acceptInvitation,
  acceptResendRequest,
  acceptResetRequest,
  approve,
  confirmEmail,
  invite,
  listPending,
  resendVerification,
  resetPassword,
  sendResetLink,
  verifyEmail,
} from './accounts.service.js';

/** The mailed links of CONTRACT.md §21: reset, verification, approval, invitations, e-mail change. */
export function accountsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const errors = { 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema };
    const kick = async () => ctx.memory.mailer?.kick();
    const logged = (request: { log: { error(o: object, m: string): void } }) => (error: unknown) =>
      request.log.error({ err: error }, 'a mailed link could not be prepared');
    /**
     * What a 202 leads to for every e-mail (the mail, when the account exists), in a turn of the event
     * loop of its own once the answer has gone: the answer's time tells nothing of the account, even
     * to a client in the same process (the database's calls are synchronous on SQLite).
     */
    const afterAnswer =
      <R extends { log: { error(o: object, m: string): void } }>(work: (request: R) => Promise<void>) =>
      async (request: R, reply: { statusCode: number }) => {
        if (reply.statusCode !== 202) return;
        setImmediate(() => void work(request).catch(logged(request)));
      };

    typed.post('/auth/forgot', {
      schema: {
        tags: ['auth'],
        summary: 'Mail a link to reset the password (202 whether or not the account exists)',
        body: ForgotBodySchema,
        response: { 202: MessageSchema, 403: ErrorSchema, 409: ErrorSchema, 422: ErrorSchema, 429: ErrorSchema },
      },
      handler: async (request, reply) =>
        reply.code(202).send(await acceptResetRequest(ctx, request.body.email, request.ip)),
      onResponse: afterAnswer((request) => sendResetLink(ctx, request.body.email, requestLanguage(request))),
    });

    typed.post('/auth/reset', {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the token of a reset link; every token of the user stops working',
        body: ResetBodySchema,
        response: { 200: MessageSchema, 403: ErrorSchema, 422: ErrorSchema },
      },
      handler: (request) => resetPassword(ctx, request.body),
    });

    typed.post('/auth/verify', {
      schema: {
        tags: ['auth'],
        summary: 'Confirm the e-mail address of a new account (SIGNUP=verify) and sign in',
        body: LinkTokenBodySchema,
        response: { 200: AuthResponseSchema, 422: ErrorSchema },
      },
      handler: (request) => verifyEmail(ctx, request.body.token),
    });

    typed.post('/auth/verify/resend', {
      schema: {
        tags: ['auth'],
        summary: 'Mail a new confirmation link (202 whether or not such an account exists)',
        body: ForgotBodySchema,
        response: { 202: MessageSchema, 422: ErrorSchema, 429: ErrorSchema },
      },
      handler: async (request, reply) => reply.code(202).send(await acceptResendRequest(ctx, request.ip)),
      onResponse: afterAnswer((request) => resendVerification(ctx, request.body.email, requestLanguage(request))),
    });

    typed.post('/auth/accept-invitation', {
      schema: {
        tags: ['auth'],
        summary: 'Make the account of an invitation and sign in',
        body: AcceptInvitationBodySchema,
        response: { 201: AuthResponseSchema, 422: ErrorSchema },
      },
      handler: async (request, reply) => reply.code(201).send(await acceptInvitation(ctx, request.body)),
    });

    typed.post('/auth/confirm-email', {
      schema: {
        tags: ['auth'],
        summary: 'Make the pending e-mail of a change link the account’s e-mail',
        body: LinkTokenBodySchema,
        response: { 200: UserEnvelopeSchema, 422: ErrorSchema },
      },
      handler: (request) => confirmEmail(ctx, request.body.token),
    });

    typed.post('/invitations', {
      onRequest,
      schema: {
        tags: ['users'],
        summary: 'Mail an invitation valid 7 days (admins)',
        security,
        body: InvitationBodySchema,
        response: { 201: InvitationSchema, ...errors },
      },
      handler: async (request, reply) =>
        reply.code(201).send(await invite(ctx, actorOf(request), request.body, requestLanguage(request))),
      onResponse: kick,
    });

    typed.get('/user/pending', {
      onRequest,
      schema: {
        tags: ['users'],
        summary: 'Accounts waiting for approval, oldest first (SIGNUP=approval; admins and managers)',
        security,
        response: { 200: z.object({ users: z.array(UserSchema) }), ...errors },
      },
      handler: async (request) => ({ users: await listPending(ctx, actorOf(request)) }),
    });

    typed.post('/user/:id/approve', {
      onRequest,
      schema: {
        tags: ['users'],
        summary: 'Approve an account waiting for approval (admins and managers); with mail, its owner is told',
        security,
        params: IdParamsSchema,
        response: { 200: UserEnvelopeSchema, ...errors },
      },
      handler: async (request) => ({
        user: await approve(ctx, actorOf(request), request.params.id, requestLanguage(request)),
      }),
      onResponse: kick,
    });
  };
}
