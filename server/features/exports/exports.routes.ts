/** `GET /export`: a runner's runs, shoes and goals as a download (CONTRACT.md §9, §16). */
import { finished, Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ExportQuerySchema, type ExportFormat } from '../../../core/imports.js';
import { ErrorSchema } from '../../../core/schemas.js';
import { todayOf, type AppContext } from '../../context.js';
import { sessionOf } from '../../http/authenticate.js';
import { exportCsv, exportJson, exportSlot, exportZip } from './exports.service.js';

const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  zip: 'application/zip',
};

export function exportsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const security = [{ bearerAuth: [] }];
    const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema, 422: ErrorSchema };
    typed.get('/export', {
      onRequest: app.requireAuth,
      schema: {
        tags: ['import and export'],
        summary:
          'All my runs as a CSV, JSON or zip download (the zip: the JSON and every tracked run’s file), streamed',
        security,
        querystring: ExportQuerySchema,
        produces: ['text/csv', 'application/json', 'application/zip'],
        response: { 200: z.string().describe('The file'), ...errors, 429: ErrorSchema },
      },
      handler: async (request, reply) => {
        const { user } = sessionOf(request);
        const format = request.query.format;
        // At most 2 of a runner's exports at once (429 beyond): the place is given back when the
        // response is written whole, fails, or its client goes (also before this handler ran).
        const release = exportSlot(ctx, user.id);
        finished(reply.raw, release);
        // One chunk (a page of runs) read ahead at most: the next page is read once the socket takes this one.
        const body =
          format === 'zip'
            ? exportZip(ctx, user)
            : Readable.from(format === 'json' ? exportJson(ctx, user) : exportCsv(ctx, user.id), { highWaterMark: 1 });
        const day = todayOf(ctx, user);
        void reply
          .header('content-type', EXPORT_CONTENT_TYPES[format])
          .header('content-disposition', `attachment; filename="running-times-${day}.${format}"`)
          .header('cache-control', 'no-store')
          .send(body as never);
        return reply;
      },
    });
  };
}
