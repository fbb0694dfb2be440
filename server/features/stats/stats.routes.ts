import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AdminDashboardSchema,
  DashboardSchema,
  ErrorSchema,
  WeeklyQuerySchema,
  WeeklyReportSchema,
} from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/authenticate.js';
import { adminDashboard, userDashboard, weeklyReport } from './stats.service.js';

/** The dashboards and the weekly report: read-only statistics of runs. */
export function statsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];

    typed.get('/dashboard/data', {
      onRequest,
      config: { cache: true },
      schema: {
        tags: ['dashboard'],
        summary: 'My week, my best results and the last 14 days',
        security,
        response: { 200: DashboardSchema, 401: ErrorSchema },
      },
      handler: (request) => userDashboard(ctx, actorOf(request)),
    });

    typed.get('/dashboard/admin-data', {
      onRequest,
      schema: {
        tags: ['dashboard'],
        summary: 'Totals for managers and admins',
        security,
        response: { 200: AdminDashboardSchema, 401: ErrorSchema, 403: ErrorSchema },
      },
      handler: (request) => adminDashboard(ctx, actorOf(request)),
    });

    typed.get('/report/weekly', {
      onRequest,
      config: { cache: true },
      schema: {
        tags: ['reports'],
        summary: 'My runs by ISO week of one year (default: this year)',
        security,
        querystring: WeeklyQuerySchema,
        response: { 200: WeeklyReportSchema, 401: ErrorSchema, 422: ErrorSchema },
      },
      handler: async (request) => ({ weekly: await weeklyReport(ctx, actorOf(request), request.query.year) }),
    });
  };
}
