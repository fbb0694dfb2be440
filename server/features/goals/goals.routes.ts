import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { GoalBodySchema, GoalEnvelopeSchema, GoalsEnvelopeSchema, GoalUpdateBodySchema } from '../../../core/goals.js';
import { ErrorSchema, MessageSchema } from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { actorOf } from '../../http/authenticate.js';
import { overridableResource } from '../../http/method-override.js';
import { createGoal, deleteGoal, listGoals, updateGoal } from './goals.service.js';

export function goalsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const onRequest = app.requireAuth;
    const security = [{ bearerAuth: [] }];
    const errors = { 401: ErrorSchema, 403: ErrorSchema, 422: ErrorSchema };

    typed.get('/goals', {
      onRequest,
      config: { cache: true },
      schema: {
        tags: ['goals'],
        summary: 'My goals with the progress of this period (in my time zone) and of the 12 before it',
        security,
        response: { 200: GoalsEnvelopeSchema, ...errors },
      },
      handler: async (request) => ({ goals: await listGoals(ctx, actorOf(request)) }),
    });

    typed.post('/goals', {
      onRequest,
      schema: {
        tags: ['goals'],
        summary: 'Set a goal (at most 20)',
        security,
        body: GoalBodySchema,
        response: { 201: GoalEnvelopeSchema, ...errors },
      },
      handler: async (request, reply) =>
        reply.code(201).send({ goal: await createGoal(ctx, actorOf(request), request.body) }),
    });

    overridableResource(app, {
      url: '/goals/:id',
      tag: 'goals',
      onRequest,
      update: {
        summary: 'Change the given fields of one of my goals',
        body: GoalUpdateBodySchema,
        response: GoalEnvelopeSchema,
        handler: async (request, id, body) => ({ goal: await updateGoal(ctx, actorOf(request), id, body) }),
      },
      remove: {
        summary: 'Delete one of my goals',
        response: MessageSchema,
        handler: async (request, id) => {
          await deleteGoal(ctx, actorOf(request), id);
          return { message: 'Goal was deleted.' };
        },
      },
    });
  };
}
