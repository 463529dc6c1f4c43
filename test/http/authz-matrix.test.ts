import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { fillPath, routeTable, type RouteInfo } from '../helpers/routes.js';

/**
 * Every route of the OpenAPI document × every kind of caller, with the status each must get.
 * The route list is read from the app, so a new route is covered the moment it is registered.
 * Personal access tokens are callers too: a reader's and an admin's, read and write, and a revoked
 * one. A `read` token is refused on every method but GET (403 `token_read_only`), every token on
 * the session-only routes (403 `session_required`).
 */
const SECRET = 'test-secret-test-secret-test-secret-0123';
const TOKEN_CALLERS = [
  'read token',
  'write token',
  'admin read token',
  'admin write token',
  'revoked token',
] as const;
type TokenCaller = (typeof TOKEN_CALLERS)[number];
type Caller = 'anonymous' | 'user' | 'other user' | 'admin' | 'forged token' | 'expired token' | TokenCaller;
const CALLERS: Caller[] = [
  'anonymous',
  'user',
  'other user',
  'admin',
  'forged token',
  'expired token',
  ...TOKEN_CALLERS,
];

/** routes that end the caller's sessions: a caller signs in again after each */
const REVOKING = new Set(['/auth/logout-others', '/auth/logout']);
const ACCOUNTS: Partial<Record<Caller, ['user' | 'admin', string]>> = {
  user: ['user', 'matrix-user@example.test'],
  'other user': ['user', 'matrix-other@example.test'],
  admin: ['admin', 'matrix-admin@example.test'],
};

describe('authorization matrix', () => {
  let t: TestApp;
  let routes: RouteInfo[];
  const headers: Partial<Record<Caller, Record<string, string>>> = {};

  beforeAll(async () => {
    t = await buildTestApp();
    // sign-out revokes the caller's token: it goes last, so it cannot hide the routes after it
    routes = routeTable(t.app).sort((a, b) => Number(REVOKING.has(a.path)) - Number(REVOKING.has(b.path)));
    const user = await t.login('user', 'matrix-user@example.test');
    const other = await t.login('user', 'matrix-other@example.test');
    const admin = await t.login('admin', 'matrix-admin@example.test');
    const sign = (secret: string, exp: number) =>
      new SignJWT({ role: 'admin' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(admin.id)
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(secret));
    const now = Math.floor(Date.now() / 1000);
    headers.anonymous = {};
    headers.user = user.headers;
    headers['other user'] = other.headers;
    headers.admin = admin.headers;
    headers['forged token'] = { authorization: `Bearer ${await sign('x'.repeat(40), now + 3600)}` };
    headers['expired token'] = { authorization: `Bearer ${await sign(SECRET, now - 10)}` };
    const token = async (owner: { headers: Record<string, string> }, scope: 'read' | 'write') => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/user/tokens',
        headers: owner.headers,
        payload: { name: `matrix ${scope} ${Math.random()}`, scope },
      });
      expect(res.statusCode).toBe(201);
      const { id, token } = res.json<{ id: string; token: string }>();
      return { id, headers: { authorization: `Bearer ${token}` } };
    };
    headers['read token'] = (await token(user, 'read')).headers;
    headers['write token'] = (await token(user, 'write')).headers;
    headers['admin read token'] = (await token(admin, 'read')).headers;
    headers['admin write token'] = (await token(admin, 'write')).headers;
    const revoked = await token(admin, 'write');
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/user/tokens/${revoked.id}`,
      headers: admin.headers,
    });
    expect(gone.statusCode).toBe(204);
    headers['revoked token'] = revoked.headers;
  });
  afterAll(() => t.close());

  it('reads a non-trivial route table', () => {
    expect(routes.length).toBeGreaterThan(15);
  });

  function expected(route: RouteInfo, caller: Caller): 'allowed' | 401 | 403 {
    const invalid = ['anonymous', 'forged token', 'expired token', 'revoked token'].includes(caller);
    // a read token changes nothing, on public routes neither (a counted view, a sign-in)
    if ((caller === 'read token' || caller === 'admin read token') && route.method !== 'GET') return 403;
    if (route.level === 'public') return 'allowed';
    if (invalid) return 401;
    const isToken = (TOKEN_CALLERS as readonly string[]).includes(caller);
    if (route.level === 'session' && isToken) return 403;
    const isAdmin = caller === 'admin' || caller === 'admin read token' || caller === 'admin write token';
    if (route.level === 'admin' && !isAdmin) return 403;
    return 'allowed';
  }

  it.each(CALLERS)('every route answers the %s caller as its auth level says', async (caller) => {
    const failures: string[] = [];
    for (const route of routes) {
      const url = fillPath(route.path, (name) => (name === '*' ? 'none.png' : randomUUID()));
      const res = await t.app.inject({
        method: route.method as 'GET',
        url,
        headers: headers[caller],
        ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {}),
      });
      const want = expected(route, caller);
      // 503 not_configured: an optional outside service (e.g. the monitoring stores) is not set up
      const served =
        res.statusCode < 500 || (res.statusCode === 503 && res.body.includes('"not_configured"'));
      const ok =
        served &&
        (want === 'allowed' ? res.statusCode !== 401 && res.statusCode !== 403 : res.statusCode === want);
      if (!ok)
        failures.push(`${route.method} ${route.path} (${route.level}) → ${res.statusCode}, want ${want}`);
      const account = ACCOUNTS[caller];
      if (REVOKING.has(route.path) && account) headers[caller] = (await t.login(...account)).headers;
    }
    expect(failures).toEqual([]);
  });
});
