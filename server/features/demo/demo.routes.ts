import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppConfigSchema } from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { DEMO_LOGIN } from './demo.service.js';

/** Settings the web app reads before sign-in: whether this is a demo, its login, the map's tiles, and where the source is. */
export function demoRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().get('/api/v1/app-config', {
      schema: { tags: ['system'], summary: 'Settings the web app reads at start', response: { 200: AppConfigSchema } },
      handler: async () => ({
        demo_mode: ctx.config.demoMode,
        demo_login: ctx.config.demoMode ? DEMO_LOGIN : null,
        map: ctx.config.mapTileUrl
          ? { tile_url: ctx.config.mapTileUrl, attribution: ctx.config.mapTileAttribution }
          : null,
        source_url: ctx.config.sourceUrl,
        mail: ctx.config.mail !== null,
        signup: ctx.config.signup,
        oidc:
          ctx.config.oidc && ctx.config.publicUrl
            ? { name: ctx.config.oidc.name, ...(ctx.config.oidc.only ? { only: true as const } : {}) }
            : null,
      }),
    });
  };
}
