/**
 * The original client sends updates and deletes as POST with `_method` = PUT, PATCH or
 * DELETE. Each such resource is registered once here: real PUT/PATCH/DELETE routes and
 * one POST route that dispatches to the same handlers.
 */
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { ErrorSchema, IdParamsSchema, validationErrorBody } from '../../core/schemas.js';
import { AppError } from '../errors.js';

const ERROR_RESPONSES = { 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 422: ErrorSchema, 429: ErrorSchema };

export function parseOrThrow<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    const body = validationErrorBody(result.error.issues);
    throw new AppError(422, body.message, body.errors);
  }
  return result.data;
}

interface OverridableResource<B extends z.ZodType, U extends z.ZodType, D extends z.ZodType> {
  url: string;
  tag: string;
  /** Authentication, first of all: before the body is read or checked. */
  onRequest: onRequestAsyncHookHandler;
  update: {
    summary: string;
    body: B;
    response: U;
    handler: (request: FastifyRequest, id: number, body: z.infer<B>) => Promise<z.infer<U>>;
  };
  remove: {
    summary: string;
    response: D;
    handler: (request: FastifyRequest, id: number) => Promise<z.infer<D>>;
  };
}

export function overridableResource<B extends z.ZodType, U extends z.ZodType, D extends z.ZodType>(
  app: FastifyInstance,
  resource: OverridableResource<B, U, D>,
): void {
  // The handlers are typed by the resource description above; these routes only route.
  const idOf = (request: FastifyRequest) => (request.params as { id: number }).id;
  const { url, tag, onRequest, update, remove } = resource;
  const security = [{ bearerAuth: [] }];

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url,
      onRequest,
      schema: {
        tags: [tag],
        summary: update.summary,
        security,
        params: IdParamsSchema,
        body: update.body,
        response: { 200: update.response, ...ERROR_RESPONSES },
      },
      handler: async (request): Promise<unknown> => update.handler(request, idOf(request), request.body as z.infer<B>),
    });
  }

  app.route({
    method: 'DELETE',
    url,
    onRequest,
    schema: {
      tags: [tag],
      summary: remove.summary,
      security,
      params: IdParamsSchema,
      response: { 200: remove.response, ...ERROR_RESPONSES },
    },
    handler: async (request): Promise<unknown> => remove.handler(request, idOf(request)),
  });

  app.route({
    method: 'POST',
    url,
    onRequest,
    schema: {
      tags: [tag],
      summary: `${update.summary} (_method PUT or PATCH), or ${remove.summary.toLowerCase()} (_method DELETE)`,
      security,
      params: IdParamsSchema,
      body: z.looseObject({
        _method: z
          .string({ error: 'The _method must be PUT, PATCH or DELETE.' })
          .optional()
          .describe('PUT, PATCH or DELETE, in any case'),
      }),
      response: { 200: z.union([update.response, remove.response]), 405: ErrorSchema, ...ERROR_RESPONSES },
    },
    handler: async (request, reply): Promise<unknown> => {
      const override = String((request.body as { _method?: unknown })._method ?? '').toUpperCase();
      if (override === 'PUT' || override === 'PATCH') {
        return update.handler(request, idOf(request), parseOrThrow(update.body, request.body));
      }
      if (override === 'DELETE') return remove.handler(request, idOf(request));
      reply.header('allow', 'GET, PUT, PATCH, DELETE');
      throw new AppError(405, 'Use _method PUT, PATCH or DELETE to change this resource with POST.');
    },
  });
}
