import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('auth', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('registers, logs in and answers /auth/me', async () => {
    const reg = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email: 'Reader@Example.test', password: 'long-enough', display_name: 'Reader' },
    });
    expect(reg.statusCode).toBe(201);
    const session = reg.json();
    expect(session).toMatchObject({
      token_type: 'bearer',
      user: { email: 'reader@example.test', role: 'user' },
    });
    expect(session.expires_in).toBeGreaterThan(0);

    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'reader@example.test', password: 'long-enough' },
    });
    expect(login.statusCode).toBe(200);
    const me = await t.app.inject({
      method: 'GET',
      url: '/auth/me',
      headers: { authorization: `Bearer ${login.json().access_token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      id: session.user.id,
      email: 'reader@example.test',
      display_name: 'Reader',
      role: 'user',
    });
  });

  it('refuses a second account for the same e-mail with 409', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email: 'dup@example.test', password: 'first-passphrase-1' },
    });
    const again = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email: 'DUP@example.test', password: 'second-passphrase-2' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('email_taken');
  });

  it('answers a wrong password and an unknown e-mail alike with 401', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email: 'x@example.test', password: 'first-passphrase-1' },
    });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'x@example.test', password: 'nope-nope' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'nobody@example.test', password: 'nope-nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().error.message).toBe(unknown.json().error.message);
  });

  it('validates register input with 422 and a details list', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email: 'not-an-email', password: 'short' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('validation_error');
    expect(res.json().error.details.length).toBeGreaterThan(0);
  });

  describe('roles and tokens on an admin route', () => {
    it('401 without a token, 403 for a user, 200 for an admin', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/admin/topics' })).statusCode).toBe(401);
      const user = await t.login('user');
      expect(
        (await t.app.inject({ method: 'GET', url: '/admin/topics', headers: user.headers })).statusCode,
      ).toBe(403);
      const admin = await t.login('admin');
      expect(
        (await t.app.inject({ method: 'GET', url: '/admin/topics', headers: admin.headers })).statusCode,
      ).toBe(200);
    });

    it('401 for a forged token (wrong key) and for an expired one', async () => {
      const admin = await t.login('admin');
      const forged = await new SignJWT({ role: 'admin' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(admin.id)
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('another-secret-another-secret-another'));
      const expired = await new SignJWT({ role: 'admin' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(admin.id)
        .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
        .sign(new TextEncoder().encode('test-secret-test-secret-test-secret-0123'));
      for (const token of [forged, expired, 'garbage', `${admin.token}x`]) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/admin/topics',
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toBe('invalid_token');
      }
    });

    it('an alg=none token is refused', async () => {
      const admin = await t.login('admin');
      const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: admin.id, role: 'admin', exp: Date.now() / 1000 + 3600 })}.`;
      const res = await t.app.inject({
        method: 'GET',
        url: '/auth/me',
        headers: { authorization: `Bearer ${none}` },
      });
      expect(res.statusCode).toBe(401);
    });
  });

  it('bootstraps the admin from ADMIN_EMAIL / ADMIN_PASSWORD and promotes an existing user', async () => {
    const first = await buildTestApp({
      env: { ADMIN_EMAIL: 'boss@example.test', ADMIN_PASSWORD: 'boss-password' },
    });
    try {
      const login = await first.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'boss@example.test', password: 'boss-password' },
      });
      expect(login.json().user.role).toBe('admin');
      const user = await first.login('user', 'later-admin@example.test');
      await first.container.services.auth.ensureUser({
        email: 'later-admin@example.test',
        password: 'password-123',
        role: 'admin',
      });
      const me = await first.app.inject({ method: 'GET', url: '/auth/me', headers: user.headers });
      expect(me.json().role).toBe('admin');
    } finally {
      await first.close();
    }
  });
});

describe('guards run before validation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('an anonymous caller with an invalid body gets 401, a user 403, never a 422', async () => {
    const anon = await t.app.inject({ method: 'POST', url: '/admin/topics', payload: { nope: 1 } });
    expect(anon.statusCode).toBe(401);
    const user = await t.login('user');
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/topics',
      headers: user.headers,
      payload: { nope: 1 },
    });
    expect(res.statusCode).toBe(403);
    const admin = await t.login('admin');
    const ok = await t.app.inject({
      method: 'POST',
      url: '/admin/topics',
      headers: admin.headers,
      payload: { nope: 1 },
    });
    expect(ok.statusCode).toBe(422);
  });
});
