/**
 * The API contract as zod schemas: one schema per request and response, used by the
 * server's routes, the OpenAPI document, the web app's forms and the tests.
 *
 * The schemas live in `core/schemas/`, one file a resource; this file re-exports them all,
 * so that importers name only `core/schemas.js`. `fields.ts` comes first: it sets zod's
 * messages (`z.config`) before any schema is used.
 */
export * from './schemas/fields.js';
export * from './schemas/users.js';
export * from './schemas/entries.js';
export * from './schemas/stats.js';
export * from './schemas/app-config.js';
