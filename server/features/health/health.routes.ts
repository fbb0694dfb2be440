import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { roundTrip } from './health.repository.js';

const HealthSchema = z.object({ status: z.enum(['ok', 'unavailable']), message: z.string().optional() });

/** Health for load balancers and monitors: a database round trip. */
export function healthRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().get('/api/health', {
      schema: {
        tags: ['system'],
        summary: 'Liveness with a database round trip',
        response: { 200: HealthSchema, 503: HealthSchema },
      },
      handler: async (request, reply) => {
        try {
          await roundTrip(ctx.db);
          return { status: 'ok' as const };
        } catch (error) {
          request.log.warn({ code: (error as { code?: string }).code }, 'health check: database unavailable');
          return reply.code(503).send({ status: 'unavailable' as const, message: 'Service unavailable.' });
        }
      },
    });
  };
}
