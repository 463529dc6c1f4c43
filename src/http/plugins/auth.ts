import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../../domain/errors.js';
import { READ_METHODS } from '../../domain/tokens.js';
import { LOCAL_ADMIN_ID, type Principal } from '../../domain/users.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** set when a valid bearer token came with the request (also on public routes) */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /**
     * The route judges a personal access token's scope itself (MCP: reads and writes are both
     * POSTs); elsewhere a `read` token is refused on every method but GET and HEAD.
     */
    ownTokenScope?: boolean;
  }
}

export type Authenticate = (token: string) => Promise<Principal | null>;

/**
 * Reads `Authorization: Bearer <token>` (a session JWT or a personal access token) on every
 * request. Public routes see the principal when one is present (e.g. is_favorited); protected
 * routes use requireUser / requireAdmin / requireSession as preHandlers. A token that is present
 * but invalid is refused with 401 on protected routes and ignored on public ones. A `read` access
 * token is refused with 403 `token_read_only` on any method that may change something, on every
 * route (public ones too), unless the route judges the scope itself (`config.ownTokenScope`).
 */
export function installAuth(
  app: FastifyInstance,
  authenticate: Authenticate,
  localAdminSecret?: string,
): void {
  app.decorateRequest('principal', null);
  const local = localAdminSecret ? localAdminCheck(localAdminSecret) : null;
  // callback-style: the anonymous majority of requests costs no promise here
  app.addHook('onRequest', (req, _reply, done) => {
    const header = req.headers.authorization;
    if (!header) return done();
    if (local && /^Local\s/i.test(header)) {
      if (local(req, header)) {
        req.principal = { userId: LOCAL_ADMIN_ID, role: 'admin', local: true };
        // what the CLI changed is worth a line; its polling of a run is not
        const level = req.method === 'GET' ? 'debug' : 'info';
        req.log[level]({ event: 'auth.local_admin', method: req.method, url: req.url });
      }
      return done();
    }
    // the Google Reader API's clients send the ClientLogin answer as `GoogleLogin auth=<token>`:
    // that is a personal access token, the same credential as a bearer one
    const token =
      /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? /^GoogleLogin\s+auth=(ais_pat_\S+)\s*$/i.exec(header)?.[1];
    if (!token) return done();
    authenticate(token).then((principal) => {
      req.principal = principal;
      if (
        principal?.token?.scope === 'read' &&
        !READ_METHODS.has(req.method) &&
        !req.routeOptions.config?.ownTokenScope
      )
        return done(readOnly());
      done();
    }, done);
  });
}

const FORWARDING = ['x-forwarded-for', 'forwarded', 'x-real-ip'];
const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The local admin channel of the CLI (`Authorization: Local <secret>`): the secret is made at each
 * start and written into DATA_DIR readable by the service's user only. It counts only on a
 * connection from this machine (loopback, or to the machine's own address) that came through no
 * proxy, so even a leaked secret is no use from elsewhere.
 */
function localAdminCheck(secret: string) {
  const expected = digest(secret);
  return (req: FastifyRequest, header: string): boolean => {
    const { remoteAddress, localAddress } = req.socket;
    const sameMachine =
      !!remoteAddress &&
      (remoteAddress === localAddress || remoteAddress === '::1' || /^(::ffff:)?127\./.test(remoteAddress));
    if (!sameMachine || FORWARDING.some((h) => h in req.headers)) return false;
    const given = /^Local\s+(\S+)\s*$/i.exec(header)?.[1];
    return !!given && timingSafeEqual(digest(given), expected);
  };
}

const readOnly = () =>
  forbidden(
    'this access token may only read; create a write token in Settings to change anything',
    'token_read_only',
  );

const requirePrincipal = (req: FastifyRequest) => {
  if (!req.principal)
    throw unauthorized(
      req.headers.authorization ? 'invalid or expired token' : 'authentication required',
      req.headers.authorization ? 'invalid_token' : 'unauthorized',
    );
};

export async function requireUser(req: FastifyRequest): Promise<void> {
  requirePrincipal(req);
  // the CLI's channel is no account: it has no favorites, settings or password of its own
  if (req.principal?.local) throw forbidden('the local admin channel reaches admin routes only');
}

/**
 * The account's own signed-in session: no access token. Sign-out, the password and the tokens
 * themselves are managed this way only, so a leaked token cannot end the owner's sessions, trade
 * itself for a session, or mint tokens that outlive its revocation.
 */
export async function requireSession(req: FastifyRequest): Promise<void> {
  await requireUser(req);
  if (req.principal?.token)
    throw forbidden('this needs a signed-in session, not an access token', 'session_required');
}

export async function requireAdmin(req: FastifyRequest): Promise<void> {
  requirePrincipal(req);
  if (req.principal?.role !== 'admin') throw forbidden('admin role required');
}

/** The caller of a route guarded by requireUser. */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

const GUARDS = new Set<unknown>([requireUser, requireSession, requireAdmin]);
const toArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * Routes declare their guard as `preHandler: requireUser | requireSession | requireAdmin`; this moves the guard to
 * onRequest so it runs BEFORE body/query validation: an anonymous or non-admin caller gets 401/403
 * and learns nothing about the route's schema from a 422.
 */
export function hoistAuthGuards(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const handlers = toArray(route.preHandler);
    const guards = handlers.filter((h) => GUARDS.has(h));
    if (!guards.length) return;
    route.preHandler = handlers.filter((h) => !GUARDS.has(h));
    route.onRequest = [...toArray(route.onRequest), ...guards] as typeof route.onRequest;
  });
}
