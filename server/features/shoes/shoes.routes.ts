import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorSchema, MessageSchema } from '../../../core/schemas.js';
import { ShoeBodySchema, ShoeEnvelopeSchema, ShoesEnvelopeSchema, ShoeUpdateBodySchema } from '../../../core/shoes.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/authenticate.js';
import { overridableResource } from '../../http/method-override.js';
import { createShoe, deleteShoe, listShoes, updateShoe } from './shoes.service.js';

export function shoesRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const errors = { 401: ErrorSchema, 403: ErrorSchema, 422: ErrorSchema };

    typed.get('/shoes', {
      onRequest,
      schema: {
        tags: ['shoes'],
        summary: 'My shoes, oldest first, with the distance and runs of the runs that name them',
        security,
        response: { 200: ShoesEnvelopeSchema, ...errors },
      },
      handler: async (request) => ({ shoes: await listShoes(ctx, actorOf(request).id) }),
    });

    typed.post('/shoes', {
      onRequest,
      schema: {
        tags: ['shoes'],
        summary: 'Add a shoe (limit_km defaults to 700, start_km to 0; is_default unsets the other default)',
        security,
        body: ShoeBodySchema,
        response: { 201: ShoeEnvelopeSchema, ...errors },
      },
      handler: async (request, reply) =>
        reply.code(201).send({ shoe: await createShoe(ctx, actorOf(request), request.body) }),
    });

    overridableResource(app, {
      url: '/shoes/:id',
      tag: 'shoes',
      onRequest,
      update: {
        summary: 'Change the given fields of one of my shoes (retiring it unsets its default)',
        body: ShoeUpdateBodySchema,
        response: ShoeEnvelopeSchema,
        handler: async (request, id, body) => ({ shoe: await updateShoe(ctx, actorOf(request), id, body) }),
      },
      remove: {
        summary: 'Delete one of my shoes (its runs stay, without a shoe)',
        response: MessageSchema,
        handler: async (request, id) => {
          await deleteShoe(ctx, actorOf(request), id);
          return { message: 'Shoe was deleted.' };
        },
      },
    });
  };
}
