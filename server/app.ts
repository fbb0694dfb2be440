/** Builds the application (API + web app) on its database. Never listens: see main.ts. */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance, type RouteOptions } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { ConfigError, linkBaseOf, type Config } from './config.js';
import { contextOf, type AppContext } from './context.js';
import { openDatabase } from './db/connection.js';
import { migrate } from './db/migrate.js';
import { notFound } from './errors.js';
import { accountsRoutes } from './features/accounts/accounts.routes.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { authenticate } from './features/auth/auth.service.js';
import { calendarRoutes, icalRoutes } from './features/calendar/calendar.routes.js';
import { twoFactorRoutes } from './features/two-factor/two-factor.routes.js';
import { oidcRoutes } from './features/oidc/oidc.routes.js';
import { demoRoutes } from './features/demo/demo.routes.js';
import { ensureDemo } from './features/demo/demo.service.js';
import { Mailer } from './features/mail/mail.service.js';
import { entriesRoutes } from './features/entries/entries.routes.js';
import { goalsRoutes } from './features/goals/goals.routes.js';
import { shoesRoutes } from './features/shoes/shoes.routes.js';
import { healthRoutes } from './features/health/health.routes.js';
import { exportsRoutes } from './features/exports/exports.routes.js';
import { importsRoutes } from './features/imports/imports.routes.js';
import { inboxRoutes } from './features/inbox/inbox.routes.js';
import { startInboxReader, type InboxReader } from './features/inbox/inbox.watcher.js';
import { sweepStagedImports } from './features/imports/imports.service.js';
import { insightsRoutes } from './features/insights/insights.routes.js';
import { tracksRoutes } from './features/tracks/tracks.routes.js';
import { routesRoutes } from './features/routes/routes.routes.js';
import { RoutesMatcher } from './features/routes/routes.service.js';
import { statsRoutes } from './features/stats/stats.routes.js';
import { tokensRoutes } from './features/tokens/tokens.routes.js';
import { usersRoutes } from './features/users/users.routes.js';
import { webhooksRoutes } from './features/webhooks/webhooks.routes.js';
import { ensureFirstAdmin, tokenOwnerLookup } from './features/users/users.service.js';
import { AnswerCache, installAnswerCache } from './http/answer-cache.js';
import { bearerAuthentication } from './http/authenticate.js';
import { loggedUrl } from './http/log-url.js';
import { installBodyPace } from './http/body-pace.js';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandler } from './http/error-handler.js';
import { installAnswerLanguage } from './http/language.js';
import { installSecurityHeaders, securityHeaders } from './http/security.js';
import { TOKEN_SCOPES_DESCRIPTION, withTokenScopes } from './http/openapi-scopes.js';
import { serializerCompiler } from './http/serializer.js';

declare module 'fastify' {
  interface FastifyInstance {
    appContext: AppContext;
    /** The answers of routes declared with `config.cache` (null: every answer computed afresh). */
    answerCache: AnswerCache | null;
    /** The inbox folders' reader while the app runs (null when INBOX_DIR is not set). */
    inboxReader: InboxReader | null;
  }
}

export interface BuildOptions {
  /** The app's answer cache (decision 034): a new one with the default bounds unless given; null for none. */
  answerCache?: AnswerCache | null;
  /** Told of every route as it is added (a test walks the route table with it). */
  onRoute?: (route: RouteOptions) => void;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  if (config.signup === 'verify' && !config.mail) {
    throw new ConfigError(
      'SIGNUP=verify needs mail to send its links: set SMTP_URL, MAIL_FROM and PUBLIC_URL, or choose another SIGNUP policy.',
    );
  }
  const database = openDatabase(config.databaseUrl, { poolSize: config.dbPoolSize });
  const ctx: AppContext = contextOf(database.kysely, config);
  const setSecurityHeaders = securityHeaders(config.mapTileOrigins);
  ctx.memory.tokenOwners = tokenOwnerLookup(database.kysely);

  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: {
        paths: ['req.headers.authorization', '*.password', '*.password_confirmation', '*.access_token'],
        censor: '[hidden]',
      },
    },
    bodyLimit: config.bodyLimit,
    // A "__proto__" or "constructor.prototype" key in JSON means nothing to this API: it is
    // dropped (never applied), and the body is judged on its real fields.
    onProtoPoisoning: 'remove',
    onConstructorPoisoning: 'remove',
    trustProxy: config.trustProxy,
    // One line per request is written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // A URL that does not decode, or a path parameter that is too long: the contract's JSON error.
    frameworkErrors: (error, request, reply) => {
      setSecurityHeaders(request, reply);
      frameworkErrorHandler(error, request, reply);
    },
    clientErrorHandler,
  });
  app.decorate('appContext', ctx);
  app.decorate('linkBase', linkBaseOf(config));
  const answerCache = options.answerCache === undefined ? new AnswerCache() : options.answerCache;
  app.decorate('answerCache', answerCache);
  app.decorate(
    'requireAuth',
    bearerAuthentication((token) => authenticate(ctx, token)),
  );
  app.decorateRequest('session', null);
  const routesMatcher = new RoutesMatcher(ctx, undefined, (error) =>
    app.log.error({ err: error }, 'Matching routes and segments failed'),
  );
  ctx.memory.runs = routesMatcher;
  app.addHook('onClose', async () => {
    await routesMatcher.close();
    await database.close();
  });

  try {
    await migrate(database);
    // Runs of an import the last stop interrupted are deleted before anyone reads (decision 037).
    await sweepStagedImports(ctx);
    const firstAdmin = await ensureFirstAdmin(ctx);
    if (firstAdmin?.generatedPassword) {
      // Shown once, on the first start only, whatever the log level: the operator's way in.
      process.stdout.write(
        `First admin created: ${firstAdmin.email} / ${firstAdmin.generatedPassword} (change this password after signing in)\n`,
      );
    } else if (firstAdmin) {
      app.log.info(`First admin created: ${firstAdmin.email}`);
    }
    if (config.demoMode) await ensureDemo(ctx);
    // Matching a stop interrupted goes on (its runners' `matching` flags are still set).
    await routesMatcher.resume();
    if (config.mail) {
      // The outbox is sent in the background (CONTRACT.md §21): mails queued before a restart leave now.
      const mailer = new Mailer(ctx, { log: app.log });
      ctx.memory.mailer = mailer;
      app.addHook('onClose', async () => mailer.stop());
      mailer.start();
    }
    // Migrations may take long; requests may not: a frozen database answers 503 in seconds.
    database.limitQueryTime(config.dbQueryTimeoutMs);
  } catch (error) {
    await database.close();
    throw error;
  }

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler({ verify: config.verifyResponses }));
  // The request line holds no secrets (the token travels in a header; a calendar feed's key, in its
  // path, is hidden by loggedUrl), so it skips the redaction every other log line goes through: a
  // few microseconds on every request.
  const requestLog = app.log.child({}, { redact: [] });
  app.addHook('onResponse', (request, reply, done) => {
    requestLog.info(
      {
        reqId: request.id,
        method: request.method,
        url: loggedUrl(request.url),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
    done();
  });
  installSecurityHeaders(app, setSecurityHeaders);
  installErrorHandler(app);
  installAnswerLanguage(app);
  installBodyPace(app, config.bodyPace);

  // Before any route: the routes declared with `config.cache` answer through it.
  installAnswerCache(app, answerCache, config.now);
  const { onRoute } = options;
  if (onRoute) app.addHook('onRoute', (route) => onRoute(route));
  // Answers of 1 KB and more go compressed to a client that accepts it (the web app's: a run's track
  // is 41 KB of JSON, 9 KB in brotli), at a quality that costs the server little per answer (decision
  // 055). The web app's files are compressed once, at build time (@fastify/static, `preCompressed`).
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(formbody);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Running Times API',
        version: '1.0.0',
        description: `The JSON API of Running Times, a self-hosted running log. ${TOKEN_SCOPES_DESCRIPTION}`,
      },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => ('openapiObject' in input ? withTokenScopes(input.openapiObject) : input.swaggerObject),
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(healthRoutes(ctx));
  await app.register(demoRoutes(ctx));
  await app.register(icalRoutes(ctx));
  for (const routes of [
    authRoutes,
    accountsRoutes,
    usersRoutes,
    entriesRoutes,
    statsRoutes,
    shoesRoutes,
    goalsRoutes,
    tokensRoutes,
    insightsRoutes,
    tracksRoutes,
    importsRoutes,
    exportsRoutes,
    calendarRoutes,
    routesRoutes,
    twoFactorRoutes,
    oidcRoutes,
    webhooksRoutes,
    inboxRoutes,
  ]) {
    await app.register(routes(ctx), { prefix: '/api/v1' });
  }

  // The inbox folders (§20) are read while the app runs, and the files dropped while it was down at once.
  app.decorate('inboxReader', null);
  if (config.inboxDir) {
    fs.mkdirSync(config.inboxDir, { recursive: true });
    app.addHook('onReady', async () => {
      app.inboxReader = startInboxReader(ctx, app.log);
    });
    app.addHook('preClose', async () => {
      await app.inboxReader?.stop();
    });
  }

  const webRoot = config.webRoot && fs.existsSync(path.join(config.webRoot, 'index.html')) ? config.webRoot : null;
  if (webRoot) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The same URL is sent brotli- or gzip-compressed or plain, by the request's Accept-Encoding.
        res.setHeader('vary', 'Accept-Encoding');
      },
    });
  }
  const screenPages = webRoot ? readScreenPages(webRoot) : [];
  app.setNotFoundHandler((request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api');
    if (webRoot && isPage) {
      // Client-side routes: the app shell answers and the router (or its 404 page) takes over; a first
      // screen's addresses get the shell that names its chunks.
      const pathname = request.url.split('?')[0]!;
      const page = screenPages.find((screen) => screen.path.test(pathname))?.page ?? 'index.html';
      return reply.header('cache-control', 'no-cache').sendFile(page);
    }
    throw notFound();
  });

  return app;
}

/**
 * The build's pages for the screens a phone opens first (scripts/screen-chunks.ts): each the app
 * shell with its screen's chunks named, for the addresses of `path`. None in a build without them.
 */
function readScreenPages(webRoot: string): { path: RegExp; page: string }[] {
  const file = path.join(webRoot, 'screen-pages.json');
  if (!fs.existsSync(file)) return [];
  const pages = JSON.parse(fs.readFileSync(file, 'utf8')) as { path: string; page: string }[];
  return pages.map((screen) => ({ path: new RegExp(screen.path), page: screen.page }));
}
