import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Logger as Pino } from 'pino';
import { enterCorrelation, newCorrelationId } from '../application/shared/context.js';
import { isInternalOnly, normalizeProxyPath, splitUrl } from './proxy-path.js';
import { codeForStatus, errorBody } from '../http/error-body.js';
import { callBackend, relay, type ForwardOptions } from './forward.js';
import { SESSION_COOKIE, readCookie } from './session-cookie.js';
import { sessionRoutes } from './session.routes.js';
import { mcpForwarding } from './mcp-forward.js';
import { TOKEN_PREFIX } from '../domain/tokens.js';
import { DebugRequestLog } from '../http/plugins/request-log.js';

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
/** for HTML the backend sends (the OpenAPI page at /api/proxy/docs): scripts and styles of its own */
export const BACKEND_HTML_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');
/** the site's icon (web/public/favicon.svg), also answered at /favicon.ico */
const FAVICON = 'favicon.svg';

/**
 * The web role: the built single-page app, the session endpoints and the same-origin forwarder
 * `/api/proxy/<backend path>` (docs/decisions/0080-web-app-and-web-role.md). It holds no state: the token lives in the cookie.
 */
/** Backend routes whose answer carries a bearer token: never relayed to a page script. */
const TOKEN_ANSWERING = new Set([
  '/auth/login',
  '/auth/register',
  '/auth/password',
  '/auth/logout-others',
  '/auth/password-reset/confirm',
]);

export async function buildWebServer(logger: Pino, opts: WebServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger as unknown as FastifyBaseLogger,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    logController: new DebugRequestLog(),
    // every line of a request carries its id, the first ("incoming request", at debug) included
    genReqId: (req) => {
      const given = req.headers['x-correlation-id'];
      const id = typeof given === 'string' && SAFE_ID.test(given) ? given : newCorrelationId();
      enterCorrelation(id);
      return id;
    },
    // we normalise /api/proxy paths ourselves; the router must not collapse or reject them first
    routerOptions: { ignoreDuplicateSlashes: false, maxParamLength: 2000 },
    // a URL the router cannot decode, or a malformed content type: the documented error body too
    frameworkErrors: (err, req, reply) => void sendWebError(err, req, reply),
  });
  app.setErrorHandler((err: FastifyError, req, reply) => sendWebError(err, req, reply));

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
      if (!normalized.ok)
        return { refused: { status: 400, code: 'bad_path' as const, message: normalized.reason } };
      // /metrics is for the internal network only: no spelling of it is relayed (404, as if absent)
      if (isInternalOnly(backendPrefix + normalized.path))
        return { refused: { status: 404, code: 'not_found' as const, message: 'not found' } };
      // the calls that answer a token go through /api/session/*, which keeps it in the cookie
      if (!backendPrefix && TOKEN_ANSWERING.has(normalized.path))
        return {
          refused: {
            status: 400,
            code: 'bad_path' as const,
            message: 'sign-in and password calls go through /api/session',
          },
        };
      const token = readCookie(req.headers.cookie, SESSION_COOKIE);
      return callBackend(req, opts, {
        method: req.method,
        pathAndQuery: backendPrefix + normalized.path + query,
        token,
        // a script's personal access token gets through at the site's one public address; the
        // session cookie wins when both come, and no other bearer (a session token a page got
        // hold of) is carried: the browser's session lives in its cookie only
        authorization: token ? undefined : personalToken(req.headers.authorization),
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
          const { status, code, message } = result.refused;
          return reply.status(status).send(errorBody(code, message, String(req.id)));
        }
        return relay(reply, result, BACKEND_HTML_CSP);
      };
    scope.all(`${PROXY_PREFIX}/*`, handler(PROXY_PREFIX, ''));
    scope.all(PROXY_PREFIX, handler(PROXY_PREFIX, ''));
    scope.route({ method: ['GET', 'HEAD'], url: '/media/*', handler: handler('/media', '/media') });
    // Atom feeds out: public, at the same paths as on the api (feed readers need no session)
    scope.route({ method: ['GET', 'HEAD'], url: '/feeds/*', handler: handler('/feeds', '/feeds') });
    // the Google Reader API at the same paths as on the api, so the one address people type works:
    // the app's own Authorization header (a personal access token) goes along, never a cookie
    const reader = async (req: FastifyRequest, reply: FastifyReply) => {
      if (!readerPathOk(req.url))
        return reply.status(400).send(errorBody('bad_path', 'dot segment or NUL in path', String(req.id)));
      try {
        const upstream = await callBackend(req, opts, {
          method: req.method,
          // verbatim: a stream id in the path keeps its %2F (feed/https%3A%2F%2F…)
          pathAndQuery: req.url,
          authorization: req.headers.authorization,
          body: req.body as Buffer | undefined,
        });
        return relay(reply, upstream);
      } catch (err) {
        req.log.warn({ event: 'web.proxy.upstream_failed', err });
        return reply.status(502).send(errorBody('bad_gateway', 'the backend did not answer', String(req.id)));
      }
    };
    scope.route({ method: ['GET', 'HEAD', 'POST'], url: '/reader/*', handler: reader });
    scope.route({ method: 'POST', url: '/accounts/ClientLogin', handler: reader });
  });

  // assistants reach /mcp here too, with their own personal access token
  await app.register(mcpForwarding(opts));

  const index = join(opts.distDir, 'index.html');
  const sendIndex = (reply: FastifyReply) =>
    reply
      .header('content-security-policy', CSP)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .sendFile('index.html');
  if (existsSync(index)) {
    await app.register(fastifyStatic, {
      root: opts.distDir,
      // files are looked up per request: a rebuild published while we run is served at once
      wildcard: true,
      index: false,
      setHeaders: (reply, file) => {
        if (file.endsWith('.html')) reply.header('content-security-policy', CSP);
        reply.header(
          'cache-control',
          file.includes(`${join(opts.distDir, 'assets')}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
    // the site root is the app (the static plugin would answer the directory itself with a 403)
    app.route({ method: ['GET', 'HEAD'], url: '/', handler: (_req, reply) => sendIndex(reply) });
    app.route({ method: ['GET', 'HEAD'], url: '/index.html', handler: (_req, reply) => sendIndex(reply) });
  } else {
    logger.warn({ event: 'web.dist_missing', dist: opts.distDir });
  }
  // browsers ask for /favicon.ico whatever the page links: the same SVG icon
  const faviconFile = join(opts.distDir, FAVICON);
  const favicon = existsSync(faviconFile) ? readFileSync(faviconFile) : null;
  app.route({
    method: ['GET', 'HEAD'],
    url: '/favicon.ico',
    handler: (req, reply) =>
      favicon
        ? reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(favicon)
        : reply.status(404).send(errorBody('not_found', 'not found', String(req.id))),
  });

  // client routes of the SPA answer index.html; unknown /api and /assets paths stay 404
  app.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    const isClientRoute =
      (req.method === 'GET' || req.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      !path.startsWith('/assets/') &&
      !/\.[a-z0-9]+$/i.test(path);
    if (isClientRoute && existsSync(index)) return sendIndex(reply);
    return reply.status(404).send(errorBody('not_found', 'not found', String(req.id)));
  });
  return app;
}

/** The web role's own errors (bad JSON, too large, a bad URL) in the documented error body. */
function sendWebError(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
  if (status >= 500) {
    req.log.error({ event: 'web.unhandled_error', err }, 'unhandled error');
    return reply.status(500).send(errorBody('internal_error', 'an internal error occurred', String(req.id)));
  }
  // Fastify's own 4xx messages (bad JSON, a bad URL, a body too large) are safe to show
  return reply.status(status).send(errorBody(codeForStatus(status), err.message, String(req.id)));
}

/** a Reader path is forwarded as it came: no segment may decode to `.` or `..`, none may hold NUL */
export function readerPathOk(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return path.split('/').every((seg) => {
    let d: string;
    try {
      d = decodeURIComponent(seg);
    } catch {
      return false;
    }
    return !d.includes('\0') && !d.split(/[/\\]/).some((x) => x === '.' || x === '..');
  });
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

/** The Authorization header when it carries a personal access token (`Bearer ais_pat_…`), else none. */
function personalToken(header: string | undefined): string | undefined {
  return header?.startsWith(`Bearer ${TOKEN_PREFIX}`) ? header : undefined;
}
