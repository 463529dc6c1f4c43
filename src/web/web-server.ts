import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Logger as Pino } from 'pino';
import { enterCorrelation, newCorrelationId } from '../application/shared/context.js';
import { normalizeProxyPath, splitUrl } from './proxy-path.js';
import { callBackend, errorBody, relay, type ForwardOptions } from './forward.js';
import { SESSION_COOKIE, readCookie } from './session-cookie.js';
import { sessionRoutes } from './session.routes.js';

export interface WebServerOptions extends ForwardOptions {
  /** the built SPA (web/dist); absent → only the proxy and session endpoints are served */
  distDir: string;
  /** mark the cookie Secure (the site is served over https) */
  secureCookie: boolean;
}

const PROXY_PREFIX = '/api/proxy';
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: http: https:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/**
 * The web role: the built single-page app, the session endpoints and the same-origin forwarder
 * `/api/proxy/<backend path>` (DESIGN.md §4). It holds no state: the token lives in the cookie.
 */
export async function buildWebServer(logger: Pino, opts: WebServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as unknown as FastifyBaseLogger,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    // every line of a request carries its id, the first ("incoming request") included
    genReqId: (req) => {
      const given = req.headers['x-correlation-id'];
      const id = typeof given === 'string' && SAFE_ID.test(given) ? given : newCorrelationId();
      enterCorrelation(id);
      return id;
    },
    // we normalise /api/proxy paths ourselves; the router must not collapse or reject them first
    routerOptions: { ignoreDuplicateSlashes: false, maxParamLength: 2000 },
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'same-origin');
    // state-changing calls from another site are refused even where SameSite would let them through
    if (!['GET', 'HEAD', 'OPTIONS'].includes(req.method) && !sameOrigin(req)) {
      return reply.status(403).send(errorBody('cross_origin', 'cross-site request refused', String(req.id)));
    }
  });

  await app.register(sessionRoutes(opts));

  // the proxy takes any body as raw bytes: the api validates it, we only carry it
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    const forward = async (req: FastifyRequest, pathPrefix: string, backendPrefix: string) => {
      const { path, query } = splitUrl(req.url, pathPrefix);
      const normalized = normalizeProxyPath(path);
      if (!normalized.ok) return { refused: normalized.reason };
      const token = readCookie(req.headers.cookie, SESSION_COOKIE);
      return callBackend(req, opts, {
        method: req.method,
        pathAndQuery: backendPrefix + normalized.path + query,
        token,
        body: req.body as Buffer | undefined,
      });
    };
    const handler =
      (pathPrefix: string, backendPrefix: string) =>
      async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
        let result: Awaited<ReturnType<typeof forward>>;
        try {
          result = await forward(req, pathPrefix, backendPrefix);
        } catch (err) {
          req.log.warn({ event: 'web.proxy.upstream_failed', err });
          return reply
            .status(502)
            .send(errorBody('bad_gateway', 'the backend did not answer', String(req.id)));
        }
        if ('refused' in result) {
          return reply.status(400).send(errorBody('bad_path', result.refused, String(req.id)));
        }
        return relay(reply, result);
      };
    scope.all(`${PROXY_PREFIX}/*`, handler(PROXY_PREFIX, ''));
    scope.all(PROXY_PREFIX, handler(PROXY_PREFIX, ''));
    scope.route({ method: ['GET', 'HEAD'], url: '/media/*', handler: handler('/media', '/media') });
    // Atom feeds out: public, at the same paths as on the api (feed readers need no session)
    scope.route({ method: ['GET', 'HEAD'], url: '/feeds/*', handler: handler('/feeds', '/feeds') });
  });

  const index = join(opts.distDir, 'index.html');
  if (existsSync(index)) {
    await app.register(fastifyStatic, {
      root: opts.distDir,
      // files are looked up per request: a rebuild published while we run is served at once
      wildcard: true,
      index: false,
      setHeaders: (reply, file) => {
        reply.header(
          'cache-control',
          file.includes(`${join(opts.distDir, 'assets')}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  } else {
    logger.warn({ event: 'web.dist_missing', dist: opts.distDir });
  }

  // client routes of the SPA answer index.html; unknown /api and /assets paths stay 404
  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    const isClientRoute =
      (req.method === 'GET' || req.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      !path.startsWith('/assets/') &&
      !/\.[a-z0-9]+$/i.test(path);
    if (isClientRoute && existsSync(index)) {
      reply.header('content-security-policy', CSP);
      reply.header('cache-control', 'no-cache');
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return reply.status(404).send(errorBody('not_found', 'not found', String(req.id)));
  });
  return app;
}

function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (!origin) return true; // non-browser clients and same-origin fetches of older browsers
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}
