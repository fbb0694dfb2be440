import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorSchema, IdParamsSchema, MessageSchema } from '../../../core/schemas.js';
import { WebhookBodySchema, WebhookCreatedSchema, WebhooksEnvelopeSchema } from '../../../core/webhooks.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { sessionOf } from '../../http/authenticate.js';
import { createWebhook, deleteWebhook, listWebhooks } from './webhooks.service.js';

const WHO =
  'A sign-in token or a write token: read tokens and demo accounts get 403. Deliveries are POSTs of JSON signed with X-RunningTimes-Signature: sha256=<HMAC-SHA256 of the body with the secret>.';

export function webhooksRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const errors = { 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 422: ErrorSchema };

    typed.get('/webhooks', {
      onRequest,
      schema: {
        tags: ['webhooks'],
        summary: 'My webhooks, oldest first, each with its last delivery',
        description: WHO,
        security,
        response: { 200: WebhooksEnvelopeSchema, ...errors },
      },
      handler: async (request) => ({ webhooks: await listWebhooks(ctx, sessionOf(request)) }),
    });

    typed.post('/webhooks', {
      onRequest,
      schema: {
        tags: ['webhooks'],
        summary: 'Add a webhook (at most 5); its secret is shown this once',
        description: `${WHO} events: any of run.created, run.updated, run.deleted (default all three).`,
        security,
        body: WebhookBodySchema,
        response: { 201: WebhookCreatedSchema, ...errors },
      },
      handler: async (request, reply) =>
        reply.code(201).send(await createWebhook(ctx, sessionOf(request), request.body)),
    });

    const remove = async (request: FastifyRequest, id: number) => {
      await deleteWebhook(ctx, sessionOf(request), id);
      return { message: 'Webhook was deleted.' };
    };

    typed.delete('/webhooks/:id', {
      onRequest,
      schema: {
        tags: ['webhooks'],
        summary: 'Delete one of my webhooks (its waiting deliveries are dropped)',
        description: WHO,
        security,
        params: IdParamsSchema,
        response: { 200: MessageSchema, ...errors },
      },
      handler: (request) => remove(request, request.params.id),
    });

    // The web app, like the original client, sends deletes as POST with `_method: DELETE`.
    typed.post('/webhooks/:id', {
      onRequest,
      schema: {
        tags: ['webhooks'],
        summary: 'Delete one of my webhooks (_method DELETE)',
        description: WHO,
        security,
        params: IdParamsSchema,
        body: z.looseObject({ _method: z.string().optional().describe('DELETE, in any case') }),
        response: { 200: MessageSchema, 405: ErrorSchema, ...errors },
      },
      handler: async (request, reply) => {
        if (String(request.body._method ?? '').toUpperCase() === 'DELETE') return remove(request, request.params.id);
        reply.header('allow', 'DELETE');
        throw new AppError(405, 'Use _method DELETE to delete a webhook with POST.');
      },
    });
  };
}
