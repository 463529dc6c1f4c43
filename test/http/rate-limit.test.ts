import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cacheKinds } from '../helpers/db.js';

describe.each(cacheKinds())('per-IP rate limits on login and register (%s cache)', (cache) => {
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  it('answers 429 with Retry-After past the login limit, per client address', async () => {
    const t = await buildTestApp({ cache, env: { RATE_LIMIT_LOGIN_PER_MINUTE: '3' } });
    apps.push(t);
    const login = (ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/login',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': ip },
        payload: { email: 'nobody@example.test', password: 'wrong-password' },
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await login('203.0.113.7')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const limited = await login('203.0.113.7');
    expect(limited.json().error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // another browser behind the same proxy has its own budget
    expect((await login('198.51.100.9')).statusCode).toBe(401);
  });

  it('limits registrations too, and a direct caller cannot dodge it with a forged header', async () => {
    const t = await buildTestApp({ cache, env: { RATE_LIMIT_REGISTER_PER_HOUR: '2' } });
    apps.push(t);
    const register = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/register',
        // not a trusted proxy: X-Forwarded-For is ignored and the socket address counts
        remoteAddress: '192.0.2.50',
        headers: { 'x-forwarded-for': `10.0.0.${i}` },
        payload: { email: `r${i}@example.test`, password: 'password-123' },
      });
    expect((await register(1)).statusCode).toBe(201);
    expect((await register(2)).statusCode).toBe(201);
    expect((await register(3)).statusCode).toBe(429);
  });
});
