import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildWebServer } from '../../src/web/web-server.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

/**
 * Issue 25.3 at the web role: a password change and "sign out other sessions" answer a new token,
 * which replaces the cookie (this browser stays signed in, the others are out); no call that
 * answers a token is relayed to a page script through /api/proxy.
 */
describe('web role: password change and other sessions against the real api', () => {
  let t: TestApp;
  let web: FastifyInstance;

  beforeAll(async () => {
    t = await buildTestApp();
    const apiUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    web = await buildWebServer(pino({ level: 'silent' }), {
      apiUrl,
      trustedProxies: ['127.0.0.1', '::1', '::ffff:127.0.0.1'],
      timeoutMs: 5000,
      distDir: join(tmpdir(), 'no-such-dist'),
      secureCookie: false,
    });
  });
  afterAll(async () => {
    await web.close();
    await t.close();
  });

  const cookieOf = (setCookie: unknown) => String(setCookie).split(';')[0]!;
  const signIn = async (email: string, password: string) =>
    cookieOf(
      (await web.inject({ method: 'POST', url: '/api/session', payload: { email, password } })).headers[
        'set-cookie'
      ],
    );
  const me = (cookie: string) =>
    web.inject({ method: 'GET', url: '/api/proxy/auth/me', headers: { cookie } });

  it('swaps the cookie after a password change; the other browser is signed out', async () => {
    await t.login('user', 'web-changer@example.test');
    const laptop = await signIn('web-changer@example.test', 'password-123');
    const phone = await signIn('web-changer@example.test', 'password-123');
    const res = await web.inject({
      method: 'POST',
      url: '/api/session/password',
      headers: { cookie: laptop },
      payload: {
        current_password: 'password-123',
        new_password: 'web-new-passphrase',
        sign_out_others: true,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('access_token');
    const fresh = cookieOf(res.headers['set-cookie']);
    expect(fresh).not.toBe(laptop);
    expect((await me(fresh)).statusCode).toBe(200);
    expect((await me(laptop)).statusCode).toBe(401);
    expect((await me(phone)).statusCode).toBe(401);

    const wrong = await web.inject({
      method: 'POST',
      url: '/api/session/password',
      headers: { cookie: fresh },
      payload: { current_password: 'nope-nope-nope', new_password: 'web-third-passphrase' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(
      (await web.inject({ method: 'POST', url: '/api/session/password', payload: { current_password: 'x' } }))
        .statusCode,
    ).toBe(401);
  });

  it('signs out the other sessions and keeps this one', async () => {
    await t.login('user', 'web-others@example.test');
    const here = await signIn('web-others@example.test', 'password-123');
    const there = await signIn('web-others@example.test', 'password-123');
    const res = await web.inject({
      method: 'POST',
      url: '/api/session/logout-others',
      headers: { cookie: here },
    });
    expect(res.statusCode).toBe(200);
    expect((await me(cookieOf(res.headers['set-cookie']))).statusCode).toBe(200);
    expect((await me(there)).statusCode).toBe(401);
  });

  it('relays no token-answering call through /api/proxy', async () => {
    await t.login('user', 'web-proxy@example.test');
    const cookie = await signIn('web-proxy@example.test', 'password-123');
    for (const [url, payload] of [
      ['/api/proxy/auth/login', { email: 'web-proxy@example.test', password: 'password-123' }],
      ['/api/proxy//auth/logout-others', {}],
      ['/api/proxy/auth/password', { current_password: 'password-123', new_password: 'proxy-passphrase' }],
      ['/api/proxy/auth/password-reset/confirm', { token: 'x'.repeat(43), password: 'proxy-passphrase' }],
    ] as const) {
      const res = await web.inject({ method: 'POST', url, headers: { cookie }, payload });
      expect(res.statusCode, url).toBe(400);
      expect(res.body).not.toContain('access_token');
    }
    expect((await me(cookie)).statusCode).toBe(200);
  });
});
