import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { InboxEnvelopeSchema } from '../../../core/inbox.js';
import { ErrorSchema } from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { sessionOf } from '../../http/authenticate.js';
import { requestLanguage } from '../../http/language.js';
import { removeInbox, replaceInbox, showInbox } from './inbox.service.js';

/** The OpenAPI document marks the routes of this tag as sign-in only (`x-token-scopes`, http/openapi-scopes.ts). */
const SIGN_IN_ONLY =
  'Needs a sign-in token: personal API tokens, read or write, and demo accounts get 403 here. Files dropped in INBOX_DIR/<folder>/ are imported for you; reasons follow Accept-Language.';

export function inboxRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const response = { 200: InboxEnvelopeSchema, 401: ErrorSchema, 403: ErrorSchema };

    typed.get('/inbox', {
      onRequest,
      schema: {
        tags: ['inbox'],
        summary: 'Your inbox folder (null until made) and the rows its latest files gave',
        description: SIGN_IN_ONLY,
        security,
        response,
      },
      handler: async (request) => ({ inbox: await showInbox(ctx, sessionOf(request), requestLanguage(request)) }),
    });

    const remove = async (request: FastifyRequest) => ({
      inbox: await removeInbox(ctx, sessionOf(request), requestLanguage(request)),
    });

    typed.post('/inbox', {
      onRequest,
      schema: {
        tags: ['inbox'],
        summary: 'Make your inbox folder, replacing the old one (which is read no more)',
        description: `${SIGN_IN_ONLY} Without INBOX_DIR on the server, a 409. With \`_method: DELETE\` in the body, removes it instead (as the web app sends deletes).`,
        security,
        body: z.looseObject({ _method: z.string().optional().describe('DELETE, in any case') }).nullish(),
        response: { ...response, 409: ErrorSchema },
      },
      handler: async (request) =>
        String(request.body?._method ?? '').toUpperCase() === 'DELETE'
          ? remove(request)
          : { inbox: await replaceInbox(ctx, sessionOf(request), requestLanguage(request)) },
    });

    typed.delete('/inbox', {
      onRequest,
      schema: {
        tags: ['inbox'],
        summary: 'Stop reading your inbox folder: its files stay where they are',
        description: SIGN_IN_ONLY,
        security,
        response,
      },
      handler: remove,
    });
  };
}
