import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { users } from '../../src/infrastructure/db/schema/index.js';
import { userCommands } from '../../src/jobs/commands/users.command.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/db.js';

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
    expect(res.json()).toEqual({ registration: 'open', password_reset_by_email: false });
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
      password_reset_by_email: false,
    });
    const admin = await t.login('user'); // what `cli user:create` does
    expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: admin.headers })).statusCode).toBe(
      200,
    );
  });
});

/** The sign-up password policy also holds for the accounts an admin makes (issue 16). */
describe('ADMIN_PASSWORD and cli user:create follow the password policy', () => {
  it('refuses a short or blank ADMIN_PASSWORD in the configuration, naming the variable', () => {
    const load = (password: string) => () =>
      loadConfig({ ADMIN_EMAIL: 'boss@example.test', ADMIN_PASSWORD: password });
    expect(load('abcd1234')).toThrow(ConfigError);
    expect(load('abcd1234')).toThrow(/ADMIN_PASSWORD: needs at least 10 characters/);
    expect(load(' '.repeat(12))).toThrow(/ADMIN_PASSWORD: cannot be only whitespace/);
    expect(load('a-long-admin-passphrase')().auth.adminPassword).toBe('a-long-admin-passphrase');
  });

  it('does not start with a common ADMIN_PASSWORD (a configuration error), and creates no account', async () => {
    const database = await createTestDatabase();
    try {
      await expect(
        buildTestApp({ database, env: { ADMIN_EMAIL: 'boss@example.test', ADMIN_PASSWORD: 'password1234' } }),
      ).rejects.toThrow(new ConfigError(['ADMIN_PASSWORD: this password is too common, choose another']));
      const rows = await database.db.select().from(users).where(eq(users.email, 'boss@example.test'));
      expect(rows).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('user:create refuses a short, blank or common password with exit 2 and a clear line', async () => {
    const t = await buildTestApp();
    const errors: string[] = [];
    const spy = vi
      .spyOn(console, 'error')
      .mockImplementation((line: unknown) => void errors.push(String(line)));
    const logged = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const create = (password: string) =>
        userCommands['user:create']!.run(t.container, { email: 'made@example.test', password, admin: true });
      expect(await create('abcd1234')).toBe(2);
      expect(await create(' '.repeat(12))).toBe(2);
      expect(await create('qwertyuiop')).toBe(2);
      expect(errors).toEqual([
        'user:create: --password refused: the password needs at least 10 characters',
        'user:create: --password refused: the password cannot be only spaces',
        'user:create: --password refused: this password is too common, choose another',
      ]);
      const rows = await t.container.database.db
        .select()
        .from(users)
        .where(eq(users.email, 'made@example.test'));
      expect(rows).toEqual([]);
      // a good one makes the account, which can sign in
      expect(await create('a-long-admin-passphrase')).toBe(0);
      const login = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        payload: { email: 'made@example.test', password: 'a-long-admin-passphrase' },
      });
      expect(login.statusCode).toBe(200);
      expect(login.json().user.role).toBe('admin');
    } finally {
      spy.mockRestore();
      logged.mockRestore();
      await t.close();
    }
  });
});
