import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { YearQuerySchema } from '../../../core/insights.js';
import { ErrorSchema, IdParamsSchema } from '../../../core/schemas.js';
import { RoutesEnvelopeSchema, RunTrackEnvelopeSchema } from '../../../core/tracks/schemas.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/authenticate.js';
import { doNotKeep } from '../../http/answer-cache.js';
import { originalFile, routes, trackGpx, trackPage } from './tracks.service.js';

/** `attachment` with the file's own name: plain ASCII in `filename`, the exact name in `filename*`. */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** An answer already written as JSON text goes out as it is. */
const sentAsItIs = (payload: unknown) => payload as string;

/** A run's track (CONTRACT.md §14, §16): its page, its original file, its GPX; and the map of every run. */
export function tracksRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const errors = { 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 422: ErrorSchema };

    typed.get('/entry/:id/track', {
      onRequest,
      config: { cache: true },
      schema: {
        tags: ['tracks'],
        summary: "A run's track: route, series, splits, laps, best efforts, elevation and heart-rate zones",
        description:
          "Computed once when the track was stored (the heart-rate zones from the owner's maximum heart rate now). " +
          '404 {"message": "This run has no track."} for a run without one.',
        security,
        params: IdParamsSchema,
        response: { 200: RunTrackEnvelopeSchema, ...errors },
      },
      handler: async (request, reply) => {
        const actor = actorOf(request);
        const page = await trackPage(ctx, actor, request.params.id);
        // Kept under the reader's revision: an admin's read of another runner's page is not kept.
        if (page.ownerId !== actor.id) doNotKeep(request);
        // Written when the track was stored: sent as it is.
        reply.type('application/json; charset=utf-8').serializer(sentAsItIs);
        return page.text as never;
      },
    });

    typed.get('/entry/:id/original', {
      onRequest,
      schema: {
        tags: ['tracks'],
        summary: 'The activity file the run was imported from, as uploaded (un-gzipped)',
        security,
        params: IdParamsSchema,
        produces: ['application/octet-stream'],
        response: { 200: z.string().describe('The file'), ...errors },
      },
      handler: async (request, reply) => {
        const file = await originalFile(ctx, actorOf(request), request.params.id);
        return reply
          .type('application/octet-stream')
          .header('content-disposition', attachment(file.name))
          .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength) as never);
      },
    });

    typed.get('/entry/:id/track.gpx', {
      onRequest,
      schema: {
        tags: ['tracks'],
        summary: "The run's track as GPX 1.1 (heart rate and cadence in Garmin's TrackPointExtension)",
        security,
        params: IdParamsSchema,
        produces: ['application/gpx+xml'],
        response: { 200: z.string().describe('The GPX file'), ...errors },
      },
      handler: async (request, reply) => {
        const gpx = await trackGpx(ctx, actorOf(request), request.params.id);
        return reply
          .type('application/gpx+xml; charset=utf-8')
          .header('content-disposition', attachment(gpx.name))
          .send(Readable.from(gpx.chunks) as never);
      },
    });

    typed.get('/insights/routes', {
      onRequest,
      config: { cache: true },
      schema: {
        tags: ['insights'],
        summary: 'The map of every run: my tracked runs with positions, of one year or all, oldest first',
        description: 'Each route simplified to at most 200 points (Google encoded polyline, precision 5).',
        security,
        querystring: YearQuerySchema,
        response: { 200: RoutesEnvelopeSchema, 401: ErrorSchema, 422: ErrorSchema },
      },
      handler: async (request) => ({ routes: await routes(ctx, actorOf(request), request.query.year) }),
    });
  };
}
