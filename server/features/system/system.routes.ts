import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppConfigSchema } from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { ping } from '../../db/database.js';
import { DEMO_LOGIN } from '../demo/demo.service.js';

const HealthSchema = z.object({ status: z.enum(['ok', 'unavailable']), message: z.string().optional() });

/** Health for load balancers and monitors; app settings the web app needs before sign-in. */
export function systemRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();

    typed.get('/api/health', {
      schema: {
        tags: ['system'],
        summary: 'Liveness with a database round trip',
        response: { 200: HealthSchema, 503: HealthSchema },
      },
      handler: async (request, reply) => {
        try {
          await ping(ctx.database);
          return { status: 'ok' as const };
        } catch (error) {
          request.log.warn({ code: (error as { code?: string }).code }, 'health check: database unavailable');
          return reply.code(503).send({ status: 'unavailable' as const, message: 'Service unavailable.' });
        }
      },
    });

    typed.get('/api/v1/app-config', {
      schema: { tags: ['system'], summary: 'Settings the web app reads at start', response: { 200: AppConfigSchema } },
      handler: async () => ({ demo_mode: ctx.config.demoMode, demo_login: ctx.config.demoMode ? DEMO_LOGIN : null }),
    });
  };
}
