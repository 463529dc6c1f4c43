import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../../domain/errors.js';
import type { Principal } from '../../domain/users.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** set when a valid bearer token came with the request (also on public routes) */
    principal: Principal | null;
  }
}

export type Authenticate = (token: string) => Promise<Principal | null>;

/**
 * Reads `Authorization: Bearer <JWT>` on every request. Public routes see the principal when one is
 * present (e.g. is_favorited); protected routes use requireUser / requireAdmin as preHandlers.
 * A token that is present but invalid is refused with 401 on protected routes and ignored on public ones.
 */
export function installAuth(app: FastifyInstance, authenticate: Authenticate): void {
  app.decorateRequest('principal', null);
  // callback-style: the anonymous majority of requests costs no promise here
  app.addHook('onRequest', (req, _reply, done) => {
    const header = req.headers.authorization;
    const token = header ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
    if (!token) return done();
    authenticate(token).then((principal) => {
      req.principal = principal;
      done();
    }, done);
  });
}

export async function requireUser(req: FastifyRequest): Promise<void> {
  if (!req.principal)
    throw unauthorized(
      req.headers.authorization ? 'invalid or expired token' : 'authentication required',
      req.headers.authorization ? 'invalid_token' : 'unauthorized',
    );
}

export async function requireAdmin(req: FastifyRequest): Promise<void> {
  await requireUser(req);
  if (req.principal?.role !== 'admin') throw forbidden('admin role required');
}

/** The caller of a route guarded by requireUser. */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw unauthorized();
  return req.principal;
}

const GUARDS = new Set<unknown>([requireUser, requireAdmin]);
const toArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * Routes declare their guard as `preHandler: requireUser | requireAdmin`; this moves the guard to
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
