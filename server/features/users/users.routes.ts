import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorSchema,
  IdParamsSchema,
  MessageSchema,
  UserEnvelopeSchema,
  UserListQuerySchema,
  UserSchema,
  UserUpdateBodySchema,
  UsersEnvelopeSchema,
} from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { actorOf, sessionOf } from '../../http/authenticate.js';
import { requestLanguage } from '../../http/language.js';
import { overridableResource } from '../../http/method-override.js';
import { paged, pageRequest } from '../../http/pagination.js';
import { deleteUser, listUsers, showUser, toUser, updateUser } from './users.service.js';

export function usersRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const errors = { 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 422: ErrorSchema };

    typed.get('/user/me', {
      onRequest,
      schema: {
        tags: ['users'],
        summary: 'The signed-in user',
        security,
        response: { 200: UserSchema, 401: ErrorSchema },
      },
      handler: async (request) => toUser(sessionOf(request).user),
    });

    typed.get('/user', {
      onRequest,
      schema: {
        tags: ['users'],
        summary: 'Users, newest first, optionally matching a name or e-mail',
        security,
        querystring: UserListQuerySchema,
        response: { 200: UsersEnvelopeSchema, ...errors },
      },
      handler: async (request) => {
        const page = pageRequest(request.query);
        const result = await listUsers(ctx, actorOf(request), request.query, page);
        return { users: paged(request, page, result.users, result.total) };
      },
    });

    typed.get('/user/:id', {
      onRequest,
      schema: {
        tags: ['users'],
        summary: 'One user',
        security,
        params: IdParamsSchema,
        response: { 200: UserEnvelopeSchema, ...errors },
      },
      handler: async (request) => ({ user: await showUser(ctx, actorOf(request), request.params.id) }),
    });

    overridableResource(app, {
      url: '/user/:id',
      tag: 'users',
      onRequest,
      update: {
        summary: 'Update a user (blank password = unchanged)',
        body: UserUpdateBodySchema,
        response: UserEnvelopeSchema,
        handler: async (request, id, body) => ({
          user: await updateUser(ctx, actorOf(request), sessionOf(request), id, body, requestLanguage(request)),
        }),
      },
      remove: {
        summary: 'Delete a user with their entries and tokens',
        response: MessageSchema,
        handler: async (request, id) => {
          await deleteUser(ctx, actorOf(request), sessionOf(request).scope, id);
          return { message: 'User was deleted.' };
        },
      },
    });
  };
}
