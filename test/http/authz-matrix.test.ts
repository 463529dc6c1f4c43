import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { fillPath, routeTable, type RouteInfo } from '../helpers/routes.js';

/**
 * Every route of the OpenAPI document × every kind of caller, with the status each must get.
 * The route list is read from the app, so a new route is covered the moment it is registered.
 */
const SECRET = 'test-secret-test-secret-test-secret-0123';
type Caller = 'anonymous' | 'user' | 'other user' | 'admin' | 'forged token' | 'expired token';
const CALLERS: Caller[] = ['anonymous', 'user', 'other user', 'admin', 'forged token', 'expired token'];

describe('authorization matrix', () => {
  let t: TestApp;
  let routes: RouteInfo[];
  const headers: Partial<Record<Caller, Record<string, string>>> = {};

  beforeAll(async () => {
    t = await buildTestApp();
    // sign-out revokes the caller's token: it goes last, so it cannot hide the routes after it
    const signOut = (r: RouteInfo) => (r.path === '/auth/logout' ? 1 : 0);
    routes = routeTable(t.app).sort((a, b) => signOut(a) - signOut(b));
    const user = await t.login('user');
    const other = await t.login('user');
    const admin = await t.login('admin');
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
  });
  afterAll(() => t.close());

  it('reads a non-trivial route table', () => {
    expect(routes.length).toBeGreaterThan(15);
  });

  function expected(route: RouteInfo, caller: Caller): 'allowed' | 401 | 403 {
    if (route.level === 'public') return 'allowed';
    if (caller === 'anonymous' || caller === 'forged token' || caller === 'expired token') return 401;
    if (route.level === 'admin' && caller !== 'admin') return 403;
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
    }
    expect(failures).toEqual([]);
  });
});
