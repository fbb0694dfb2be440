import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AllEntriesEnvelopeSchema,
  EntriesEnvelopeSchema,
  EntryBodySchema,
  EntryEnvelopeSchema,
  EntryListQuerySchema,
  ErrorSchema,
  IdParamsSchema,
  MessageSchema,
  OwnEntriesEnvelopeSchema,
  OwnEntryListQuerySchema,
  PageQuerySchema,
} from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { actorOf, sessionOf } from '../../http/authenticate.js';
import { overridableResource } from '../../http/method-override.js';
import { paged, pageRequest } from '../../http/pagination.js';
import { envelopeWriter } from '../../http/serializer.js';
import { answerAt } from '../../memo.js';
import {
  createEntry,
  deleteEntry,
  listEveryonesEntries,
  listOwnEntries,
  listShoeEntries,
  showEntry,
  updateEntry,
} from './entries.service.js';

export function entriesRoutes(ctx: AppContext) {
  const ownListWriter = envelopeWriter(ctx.config.verifyResponses, 'entries', OwnEntriesEnvelopeSchema, '/entry');
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const errors = { 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 422: ErrorSchema };

    typed.get('/entry', {
      onRequest,
      schema: {
        tags: ['entries'],
        summary:
          'My runs, newest first or in the order of `sort`, optionally between two dates (inclusive), with the totals of every run between them',
        security,
        querystring: OwnEntryListQuerySchema,
        response: { 200: OwnEntriesEnvelopeSchema, ...errors },
      },
      handler: async (request, reply) => {
        const actor = actorOf(request);
        const revision = sessionOf(request).revision;
        // The page as sent, its links included, kept under the runner's revision and the URL asked
        // for; the writer keeps its text beside it (decision 031).
        const url = `${request.protocol}://${request.host}${request.url}`;
        const body = await answerAt(ctx, actor, revision, `entries:${url}`, async () => {
          const page = pageRequest(request.query);
          const result = await listOwnEntries(ctx, actor, revision, request.query, page);
          return { entries: paged(request, page, result.entries, result.total), summary: result.summary };
        });
        reply.type('application/json; charset=utf-8').serializer(ownListWriter);
        return body;
      },
    });

    typed.get('/shoes/:id/entries', {
      onRequest,
      schema: {
        tags: ['shoes'],
        summary: 'The runs of one of my shoes, newest first',
        security,
        params: IdParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: EntriesEnvelopeSchema, ...errors },
      },
      handler: async (request) => {
        const page = pageRequest(request.query);
        const result = await listShoeEntries(ctx, actorOf(request), request.params.id, page);
        return { entries: paged(request, page, result.entries, result.total) };
      },
    });

    typed.get('/entry/all', {
      onRequest,
      schema: {
        tags: ['entries'],
        summary: "Everyone's runs with their runner (admins only)",
        security,
        querystring: EntryListQuerySchema,
        response: { 200: AllEntriesEnvelopeSchema, ...errors },
      },
      handler: async (request) => {
        const page = pageRequest(request.query);
        const result = await listEveryonesEntries(ctx, actorOf(request), request.query, page);
        return { entries: paged(request, page, result.entries, result.total) };
      },
    });

    typed.get('/entry/:id', {
      onRequest,
      schema: {
        tags: ['entries'],
        summary: 'One run',
        security,
        params: IdParamsSchema,
        response: { 200: EntryEnvelopeSchema, ...errors },
      },
      handler: async (request) => ({ entry: await showEntry(ctx, actorOf(request), request.params.id) }),
    });

    typed.post('/entry', {
      onRequest,
      schema: {
        tags: ['entries'],
        summary: 'Record a run',
        security,
        body: EntryBodySchema,
        response: { 201: EntryEnvelopeSchema, ...errors },
      },
      handler: async (request, reply) =>
        reply.code(201).send({ entry: await createEntry(ctx, actorOf(request), request.body) }),
    });

    overridableResource(app, {
      url: '/entry/:id',
      tag: 'entries',
      onRequest,
      update: {
        summary: 'Change a run',
        body: EntryBodySchema,
        response: EntryEnvelopeSchema,
        handler: async (request, id, body) => ({ entry: await updateEntry(ctx, actorOf(request), id, body) }),
      },
      remove: {
        summary: 'Delete a run',
        response: MessageSchema,
        handler: async (request, id) => {
          await deleteEntry(ctx, actorOf(request), id);
          return { message: 'Entry was deleted.' };
        },
      },
    });
  };
}
