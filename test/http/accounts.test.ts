import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('accounts: password policy, sign-out revocation, registration switch', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const register = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/auth/register', payload: { email, password } });

  it('refuses short, blank and common passwords with 422, accepts a good one', async () => {
    const short = await register('p1@example.test', 'abc12345');
    expect(short.statusCode).toBe(422);
    const blank = await register('p2@example.test', ' '.repeat(12));
    expect(blank.statusCode).toBe(422);
    expect(blank.json().error.code).toBe('weak_password');
    for (const common of ['1234567890', 'qwertyuiop', 'Password123', 'iloveyou12']) {
      const res = await register(`c-${common}@example.test`, common);
      expect(res.statusCode, common).toBe(422);
      expect(res.json().error).toMatchObject({
        code: 'weak_password',
        details: [{ path: '/body/password' }],
      });
    }
    expect((await register('ok@example.test', 'correct horse battery')).statusCode).toBe(201);
  });

  it('a token is refused after sign-out, every other token of the account too; a new sign-in works', async () => {
    const reg = await register('out@example.test', 'sign-out-passphrase');
    const first = reg.json<{ access_token: string }>().access_token;
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'out@example.test', password: 'sign-out-passphrase' },
    });
    const second = login.json<{ access_token: string }>().access_token;
    const me = (token: string) =>
      t.app.inject({ method: 'GET', url: '/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect((await me(first)).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { authorization: `Bearer ${first}` },
    });
    expect(out.statusCode).toBe(204);
    expect((await me(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
    const again = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'out@example.test', password: 'sign-out-passphrase' },
    });
    expect((await me(again.json<{ access_token: string }>().access_token)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/auth/logout' })).statusCode).toBe(401);
  });

  it('says whether registration is open', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/auth/registration' });
    expect(res.json()).toEqual({ registration: 'open' });
  });
});

describe('REGISTRATION=closed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { REGISTRATION: 'closed' } });
  });
  afterAll(() => t.close());

  it('refuses sign-up with 403, admin-created accounts still sign in', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email: 'new@example.test', password: 'a-good-passphrase' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('registration_closed');
    expect((await t.app.inject({ method: 'GET', url: '/auth/registration' })).json()).toEqual({
      registration: 'closed',
    });
    const admin = await t.login('user'); // what `cli user:create` does
    expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: admin.headers })).statusCode).toBe(
      200,
    );
  });
});
