import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CALENDAR_FEED_KEY, CalendarFeedEnvelopeSchema } from '../../../core/calendar-feed.js';
import { ErrorSchema } from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { sessionOf } from '../../http/authenticate.js';
import { openFeed, removeFeed, replaceFeed, showFeed, writeFeed } from './calendar.service.js';

/** The OpenAPI document marks the routes of this tag as sign-in only (`x-token-scopes`, http/openapi-scopes.ts). */
const SIGN_IN_ONLY =
  'Needs a sign-in token: personal API tokens, read or write, and demo accounts get 403 here. The url is built on PUBLIC_URL (else the address the server listens on), never on the request’s Host.';

/** Does `If-None-Match` name this ETag (or `*`)? Weak comparison, as RFC 9110 asks of If-None-Match. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/** The feed's key from `<key>.ics`, or null when the name cannot be one. */
const keyOfFile = (file: string): string | null => {
  const key = file.endsWith('.ics') ? file.slice(0, -4) : '';
  return CALENDAR_FEED_KEY.test(key) ? key : null;
};

export function calendarRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const errors = { 401: ErrorSchema, 403: ErrorSchema };
    const response = { 200: CalendarFeedEnvelopeSchema, ...errors };

    typed.get('/calendar-feed', {
      onRequest,
      schema: {
        tags: ['calendar'],
        summary: 'The address of your calendar feed (null until made)',
        description: SIGN_IN_ONLY,
        security,
        response,
      },
      handler: async (request) => ({ calendar_feed: await showFeed(ctx, sessionOf(request)) }),
    });

    const remove = async (request: FastifyRequest) => ({ calendar_feed: await removeFeed(ctx, sessionOf(request)) });

    typed.post('/calendar-feed', {
      onRequest,
      schema: {
        tags: ['calendar'],
        summary: 'Make your calendar feed’s address, replacing the old one (which stops at once)',
        description: `${SIGN_IN_ONLY} With \`_method: DELETE\` in the body, removes it instead (as the web app sends deletes).`,
        security,
        body: z.looseObject({ _method: z.string().optional().describe('DELETE, in any case') }).nullish(),
        response,
      },
      handler: async (request) =>
        String(request.body?._method ?? '').toUpperCase() === 'DELETE'
          ? remove(request)
          : { calendar_feed: await replaceFeed(ctx, sessionOf(request)) },
    });

    typed.delete('/calendar-feed', {
      onRequest,
      schema: {
        tags: ['calendar'],
        summary: 'Remove your calendar feed: its address stops at once',
        description: SIGN_IN_ONLY,
        security,
        response,
      },
      handler: remove,
    });
  };
}

/** `GET /ical/<key>.ics`: outside /api, the key is the only authentication (CONTRACT.md §20). */
export function icalRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    typed.get('/ical/:file', {
      schema: {
        tags: ['calendar'],
        summary: 'A calendar feed (text/calendar, RFC 5545): one all-day event per run of its owner',
        description:
          'The key in the address is the only authentication. Sends a strong ETag; If-None-Match with it answers 304. An unknown key is a 404 in plain text.',
        params: z.object({ file: z.string().describe('<key>.ics') }),
      },
      handler: async (request, reply) => {
        const key = keyOfFile(request.params.file);
        const feed = key ? await openFeed(ctx, key) : null;
        if (!feed) return reply.code(404).type('text/plain; charset=utf-8').send('Not found.\n');
        reply.header('etag', feed.etag).header('cache-control', 'private, no-cache');
        if (matches(request.headers['if-none-match'], feed.etag)) return reply.code(304).send();
        return reply
          .type('text/calendar; charset=utf-8')
          .header('content-disposition', 'inline; filename="running-times.ics"')
          .send(Readable.from(writeFeed(ctx, feed.owner)));
      },
    });
  };
}
