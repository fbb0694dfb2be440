import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  NameBodySchema,
  RouteEnvelopeSchema,
  RoutesEnvelopeSchema,
  SEGMENT_DELETED,
  SegmentBodySchema,
  SegmentEnvelopeSchema,
  SegmentsEnvelopeSchema,
} from '../../../core/routes/schemas.js';
import { ErrorSchema, IdParamsSchema, MessageSchema } from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { actorOf } from '../../http/authenticate.js';
import { overridableResource, parseOrThrow } from '../../http/method-override.js';
import {
  createSegment,
  deleteSegment,
  listRoutes,
  listSegments,
  renameRoute,
  renameSegment,
  showRoute,
  showSegment,
} from './routes.service.js';

/** Routes and segments (CONTRACT.md §22): the caller's own; another runner's id is a 404. */
export function routesRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const errors = { 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 422: ErrorSchema };

    typed.get('/routes', {
      onRequest,
      config: { cache: true },
      schema: {
        tags: ['routes'],
        summary: 'My routes: runs that went the same way, newest last run first',
        security,
        response: { 200: RoutesEnvelopeSchema, ...errors },
      },
      handler: async (request) => ({ routes: await listRoutes(ctx, actorOf(request)) }),
    });

    typed.get('/routes/:id', {
      onRequest,
      config: { cache: true },
      schema: {
        tags: ['routes'],
        summary: 'One of my routes and its runs, fastest first',
        security,
        params: IdParamsSchema,
        response: { 200: RouteEnvelopeSchema, ...errors },
      },
      handler: async (request) => ({ route: await showRoute(ctx, actorOf(request), request.params.id) }),
    });

    const rename = async (request: FastifyRequest, id: number, body: z.infer<typeof NameBodySchema>) => ({
      route: await renameRoute(ctx, actorOf(request), id, body),
    });
    typed.put('/routes/:id', {
      onRequest,
      schema: {
        tags: ['routes'],
        summary: 'Rename one of my routes',
        security,
        params: IdParamsSchema,
        body: NameBodySchema,
        response: { 200: RouteEnvelopeSchema, ...errors },
      },
      handler: async (request) => rename(request, request.params.id, request.body),
    });
    typed.post('/routes/:id', {
      onRequest,
      schema: {
        tags: ['routes'],
        summary: 'Rename one of my routes (_method PUT or PATCH)',
        security,
        params: IdParamsSchema,
        body: z.looseObject({ _method: z.string().optional().describe('PUT or PATCH, in any case') }),
        response: { 200: RouteEnvelopeSchema, 405: ErrorSchema, ...errors },
      },
      handler: async (request, reply) => {
        const override = String(request.body._method ?? '').toUpperCase();
        if (override === 'PUT' || override === 'PATCH') {
          return rename(request, request.params.id, parseOrThrow(NameBodySchema, request.body));
        }
        reply.header('allow', 'GET, PUT, PATCH');
        throw new AppError(405, 'Use _method PUT or PATCH to change this resource with POST.');
      },
    });

    typed.get('/segments', {
      onRequest,
      config: { cache: true },
      schema: {
        tags: ['routes'],
        summary: 'My segments, oldest first',
        security,
        response: { 200: SegmentsEnvelopeSchema, ...errors },
      },
      handler: async (request) => ({ segments: await listSegments(ctx, actorOf(request)) }),
    });

    typed.post('/segments', {
      onRequest,
      schema: {
        tags: ['routes'],
        summary: 'Mark a segment on one of my tracked runs (at most 200)',
        description: 'Answers at once with `matching: true`; its efforts fill in as my runs are matched.',
        security,
        body: SegmentBodySchema,
        response: { 201: SegmentEnvelopeSchema, ...errors },
      },
      handler: async (request, reply) =>
        reply.code(201).send({ segment: await createSegment(ctx, actorOf(request), request.body) }),
    });

    typed.get('/segments/:id', {
      onRequest,
      config: { cache: true },
      schema: {
        tags: ['routes'],
        summary: 'One of my segments and its efforts, fastest first',
        security,
        params: IdParamsSchema,
        response: { 200: SegmentEnvelopeSchema, ...errors },
      },
      handler: async (request) => ({ segment: await showSegment(ctx, actorOf(request), request.params.id) }),
    });

    overridableResource(app, {
      url: '/segments/:id',
      tag: 'routes',
      onRequest,
      update: {
        summary: 'Rename one of my segments',
        body: NameBodySchema,
        response: SegmentEnvelopeSchema,
        handler: async (request, id, body) => ({ segment: await renameSegment(ctx, actorOf(request), id, body) }),
      },
      remove: {
        summary: 'Delete one of my segments and its efforts',
        response: MessageSchema,
        handler: async (request, id) => {
          await deleteSegment(ctx, actorOf(request), id);
          return { message: SEGMENT_DELETED };
        },
      },
    });
  };
}
