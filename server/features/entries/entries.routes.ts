import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AllEntriesEnvelopeSchema,
  EntriesEnvelopeSchema,
  EntryBodySchema,
  EntryEnvelopeSchema,
  EntryListQuerySchema,
  type Entry,
  ErrorSchema,
  IdParamsSchema,
  MessageSchema,
  OwnEntriesEnvelopeSchema,
  OwnEntryListQuerySchema,
  PageQuerySchema,
} from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/authenticate.js';
import { overridableResource } from '../../http/method-override.js';
import { paged, pageRequest } from '../../http/pagination.js';
import { invalid } from '../../errors.js';
import {
  createEntry,
  createEntryOnce,
  deleteEntry,
  listEveryonesEntries,
  listOwnEntries,
  listShoeEntries,
  listUserEntries,
  showEntry,
  updateEntry,
} from './entries.service.js';

/** The length an `Idempotency-Key` may have (CONTRACT.md §20). */
export const IDEMPOTENCY_KEY_MAX = 100;
const IDEMPOTENCY_KEY_MESSAGE = `The Idempotency-Key header must be 1 to ${IDEMPOTENCY_KEY_MAX} characters.`;

/** The request's `Idempotency-Key`, undefined without one; a 422 when it is empty or too long. */
function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header.join(', ') : header;
  if (key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX) throw invalid('idempotency_key', IDEMPOTENCY_KEY_MESSAGE);
  return key;
}

export function entriesRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const errors = { 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 422: ErrorSchema };

    typed.get('/entry', {
      onRequest,
      config: { cache: true },
      schema: {
        tags: ['entries'],
        summary:
          'My runs, newest first or in the order of `sort`, optionally between two dates (inclusive), with the totals of every run between them',
        security,
        querystring: OwnEntryListQuerySchema,
        response: { 200: OwnEntriesEnvelopeSchema, ...errors },
      },
      handler: async (request) => {
        const page = pageRequest(request.query);
        const result = await listOwnEntries(ctx, actorOf(request), request.query, page);
        return { entries: paged(request, page, result.entries, result.total), summary: result.summary };
      },
    });

    typed.get('/user/:id/entries', {
      onRequest,
      schema: {
        tags: ['entries'],
        summary: "One user's runs, as GET /entry answers one's own (admins, or the user themself)",
        description:
          "For the admin's user page: the same order, range, paging and `summary` as `GET /entry`. Another user's " +
          'runs are for an admin only (403 otherwise); an unknown user is a 404.',
        security,
        params: IdParamsSchema,
        querystring: OwnEntryListQuerySchema,
        response: { 200: OwnEntriesEnvelopeSchema, ...errors },
      },
      handler: async (request) => {
        const page = pageRequest(request.query);
        const result = await listUserEntries(ctx, actorOf(request), request.params.id, request.query, page);
        return { entries: paged(request, page, result.entries, result.total), summary: result.summary };
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
        description:
          'With an `Idempotency-Key` header (1-100 characters; else a 422 on `idempotency_key`), a repeat of the ' +
          'key by the same user within 7 days answers the first answer again (`Idempotent-Replayed: true`) and ' +
          'stores nothing; a refused request keeps nothing under its key.',
        security,
        body: EntryBodySchema,
        response: { 201: EntryEnvelopeSchema, ...errors },
      },
      handler: async (request, reply) => {
        const key = idempotencyKeyOf(request.headers['idempotency-key']);
        if (key === undefined)
          return reply.code(201).send({ entry: await createEntry(ctx, actorOf(request), request.body) });
        const { answer, replayed } = await createEntryOnce(ctx, actorOf(request), request.body, key);
        if (replayed) reply.header('idempotent-replayed', 'true');
        // The kept body is the envelope's data: the route's serializer writes it as it wrote it first.
        return reply.code(answer.status).send(JSON.parse(answer.body) as { entry: Entry });
      },
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
