import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorSchema, WeeklyQuerySchema, WeeklyReportSchema } from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { actorOf, requireAuth } from '../../http/auth.js';
import { weeklyReport } from './reports.service.js';

export function reportsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().get('/report/weekly', {
      preHandler: requireAuth(ctx),
      schema: {
        tags: ['reports'],
        summary: 'My runs by ISO week of one year (default: this year)',
        security: [{ bearerAuth: [] }],
        querystring: WeeklyQuerySchema,
        response: { 200: WeeklyReportSchema, 401: ErrorSchema, 422: ErrorSchema },
      },
      handler: async (request) => ({ weekly: await weeklyReport(ctx, actorOf(request), request.query.year) }),
    });
  };
}
