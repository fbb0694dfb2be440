import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AdminDashboardSchema, DashboardSchema, ErrorSchema } from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { actorOf, requireAuth } from '../../http/auth.js';
import { adminDashboard, userDashboard } from './dashboard.service.js';

export function dashboardRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const preHandler = requireAuth(ctx);
    const security = [{ bearerAuth: [] }];

    typed.get('/dashboard/data', {
      preHandler,
      schema: {
        tags: ['dashboard'],
        summary: 'My week, my best results and the last 14 days',
        security,
        response: { 200: DashboardSchema, 401: ErrorSchema },
      },
      handler: (request) => userDashboard(ctx, actorOf(request)),
    });

    typed.get('/dashboard/admin-data', {
      preHandler,
      schema: {
        tags: ['dashboard'],
        summary: 'Totals for managers and admins',
        security,
        response: { 200: AdminDashboardSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
      handler: (request) => adminDashboard(ctx, actorOf(request)),
    });
  };
}
