import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Logger as Pino } from 'pino';
import { enterCorrelation, newCorrelationId } from '../application/shared/context.js';
import { ErrorBody } from './schemas/common.js';
import { DebugRequestLog } from './plugins/request-log.js';
import { installValidators } from './plugins/validation.js';
import { buildSerializer } from './plugins/serialization.js';
import { installErrorHandling } from './plugins/errors.js';
import { hoistAuthGuards, installAuth } from './plugins/auth.js';
import { installRateLimits } from './plugins/rate-limit.js';
import { installLoginThrottle } from './plugins/login-throttle.js';
import type { HttpOptions, Services } from './services.js';
import { healthRoutes } from './routes/health.routes.js';
import { accountRoutes } from './routes/accounts.routes.js';
import { adminUserRoutes } from './routes/admin-users.routes.js';
import { authRoutes } from './routes/auth.routes.js';
import { catalogRoutes } from './routes/catalog.routes.js';
import { sourcesRoutes } from './routes/sources.routes.js';
import { opmlRoutes } from './routes/opml.routes.js';
import { metricsRoutes } from './routes/metrics.routes.js';
import { userRoutes } from './routes/users.routes.js';
import { monitorRoutes } from './routes/monitor.routes.js';
import { tagRoutes } from './routes/tags.routes.js';
import { articleRoutes } from './routes/articles.routes.js';
import { worksRoutes } from './routes/works.routes.js';
import { favoriteRoutes } from './routes/favorites.routes.js';
import { readerRoutes } from './routes/reader.routes.js';
import { feedRoutes } from './routes/feeds.routes.js';
import { mediaRoutes, reportsRoutes } from './routes/reports.routes.js';
import { scraperRoutes } from './routes/scraper.routes.js';
import { jobsRoutes } from './routes/jobs.routes.js';
import { runsRoutes } from './routes/runs.routes.js';
import { prometheusRoutes } from './routes/prometheus.routes.js';
import { tokenRoutes } from './routes/tokens.routes.js';
import { webhookRoutes } from './routes/webhooks.routes.js';
import { mcpRoutes } from './mcp/mcp.routes.js';
import { greaderRoutes } from './routes/greader.routes.js';
import { looksLikeAccessToken } from '../domain/tokens.js';
import { askRoutes } from './routes/ask.routes.js';

const CORRELATION_HEADER = 'x-correlation-id';
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const API_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-site',
} as const;

export async function buildApp(
  services: Services,
  logger: Pino,
  opts: HttpOptions,
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as unknown as FastifyBaseLogger,
    bodyLimit: opts.bodyLimitBytes ?? 1024 * 1024,
    requestIdHeader: false,
    logController: new DebugRequestLog(),
    // the id is set as the correlation of everything that follows before Fastify writes the
    // request's first line ("incoming request", at debug), so that line carries it too
    genReqId: (req) => {
      const given = req.headers[CORRELATION_HEADER];
      const id = typeof given === 'string' && SAFE_ID.test(given) ? given : newCorrelationId();
      enterCorrelation(id);
      return id;
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // response serializers compiled once per process (plugins/serialization.ts)
    schemaController: { compilersFactory: { buildSerializer } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  installValidators(app, [ErrorBody]);
  app.addSchema(ErrorBody);
  installErrorHandling(app);

  // Hooks on every request are written callback-style: an async hook costs a promise and a
  // microtask turn per request, which shows on the hot routes (views, the list).
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(CORRELATION_HEADER, req.id);
    // a JSON API: nothing of it is meant to be framed, sniffed or to leak the referrer
    reply.headers(API_SECURITY_HEADERS);
    done();
  });
  // a personal access token says so by its prefix; anything else is a session token
  installAuth(
    app,
    (token) =>
      looksLikeAccessToken(token) ? services.tokens.authenticate(token) : services.auth.authenticate(token),
    opts.localAdminSecret,
  );
  hoistAuthGuards(app);
  installRateLimits(
    app,
    services.rateLimiter,
    {
      login: null,
      register: null,
      view: null,
      search: null,
      similar: null,
      ask: null,
      reader: null,
      ...opts.rateLimits,
    },
    opts.trustedProxies,
  );
  installLoginThrottle(app, services.loginThrottle, opts.trustedProxies);

  if (opts.exposeDocs !== false) {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Article Intelligence Service',
          version: '1.0.0',
          description: 'Articles, weekly reports, tags, metric catalog and the monitoring proxy.',
        },
        components: {
          securitySchemes: {
            bearer: {
              type: 'http',
              scheme: 'bearer',
              description:
                'a session JWT (POST /auth/login) or a personal access token (ais_pat_…, Settings)',
            },
          },
        },
      },
      refResolver: { buildLocalReference: (json, _base, _frag, i) => String(json.$id ?? `def-${i}`) },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  }

  await app.register(healthRoutes(services));
  await app.register(authRoutes(services));
  await app.register(accountRoutes(services));
  await app.register(adminUserRoutes(services));
  await app.register(catalogRoutes(services));
  await app.register(sourcesRoutes(services));
  await app.register(opmlRoutes(services));
  await app.register(tagRoutes(services));
  await app.register(articleRoutes(services, opts));
  await app.register(worksRoutes(services));
  await app.register(favoriteRoutes(services));
  await app.register(readerRoutes(services));
  await app.register(feedRoutes(services));
  await app.register(askRoutes(services));
  await app.register(reportsRoutes(services));
  await app.register(mediaRoutes(services));
  await app.register(scraperRoutes(services));
  await app.register(jobsRoutes(services));
  await app.register(runsRoutes(services));
  await app.register(metricsRoutes(services));
  await app.register(userRoutes(services));
  await app.register(tokenRoutes(services));
  await app.register(webhookRoutes(services));
  await app.register(mcpRoutes(services, opts));
  await app.register(greaderRoutes(services));
  await app.register(monitorRoutes(services));
  await app.register(prometheusRoutes(opts.prometheus, opts.trustedProxies));

  return app;
}
