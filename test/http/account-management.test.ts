import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResets, users } from '../../src/infrastructure/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { SmtpPeer } from '../peers/smtp-peer.js';

/**
 * Issue 25.3: a user changes the password and signs out the other sessions; an admin lists,
 * promotes, demotes, disables and resets accounts; the last admin stays; reset links are
 * single-use, expire and are stored hashed; "forgot password" says nothing about who has an account.
 */
const PASSWORD = 'password-123';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function api(t: TestApp) {
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, headers?: object, payload?: object) =>
    t.app.inject({ method, url, headers: headers as Record<string, string>, payload });
  return {
    call,
    login: (email: string, password: string) => call('POST', '/auth/login', {}, { email, password }),
    me: (token: string) => call('GET', '/auth/me', bearer(token)),
  };
}

describe('a user manages the own account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('changes the password: the current one is checked, the policy holds, the old one is refused after', async () => {
    const { call, login, me } = api(t);
    const a = await t.login('user', 'changer@example.test');
    const other = (await login('changer@example.test', PASSWORD)).json<{ access_token: string }>()
      .access_token;
    const change = (body: object) => call('POST', '/auth/password', a.headers, body);

    const wrong = await change({ current_password: 'not-it-at-all', new_password: 'a-new-passphrase' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().error).toMatchObject({
      code: 'wrong_password',
      details: [{ path: '/body/current_password' }],
    });
    const weak = await change({ current_password: PASSWORD, new_password: 'qwertyuiop' });
    expect(weak.json().error).toMatchObject({
      code: 'weak_password',
      details: [{ path: '/body/new_password' }],
    });

    // without signing out the others, the other session goes on
    const kept = await change({
      current_password: PASSWORD,
      new_password: 'a-new-passphrase',
      sign_out_others: false,
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.headers['cache-control']).toBe('no-store');
    expect((await me(other)).statusCode).toBe(200);
    expect((await login('changer@example.test', PASSWORD)).statusCode).toBe(401);
    expect((await login('changer@example.test', 'a-new-passphrase')).statusCode).toBe(200);

    // with it, every other token stops working; the answered one goes on
    const current = kept.json<{ access_token: string }>().access_token;
    const out = await call('POST', '/auth/password', bearer(current), {
      current_password: 'a-new-passphrase',
      new_password: 'a-third-passphrase',
      sign_out_others: true,
    });
    expect(out.statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(current)).statusCode).toBe(401);
    expect((await me(out.json<{ access_token: string }>().access_token)).statusCode).toBe(200);
    expect((await login('changer@example.test', 'a-new-passphrase')).statusCode).toBe(401);
  });

  it('signs out every other session and keeps this one with a new token', async () => {
    const { call, login, me } = api(t);
    const a = await t.login('user', 'elsewhere@example.test');
    const phone = (await login('elsewhere@example.test', PASSWORD)).json<{ access_token: string }>()
      .access_token;
    const res = await call('POST', '/auth/logout-others', a.headers);
    expect(res.statusCode).toBe(200);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(a.token)).statusCode).toBe(401);
    expect((await me(res.json<{ access_token: string }>().access_token)).statusCode).toBe(200);
  });
});

describe.each(dbKinds())('the admin Users API (%s)', (kind) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['login']>>;
  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    admin = await t.login('admin', 'first-admin@example.test');
  });
  afterAll(() => t.close());

  it('lists and searches accounts (e-mail or name, wildcards literal), newest first', async () => {
    const { call } = api(t);
    await t.login('user', 'reader.one@example.test');
    await t.login('user', 'reader_two@example.test');
    const all = await call('GET', '/admin/users?limit=100', admin.headers);
    expect(all.statusCode).toBe(200);
    const body = all.json<{
      items: { email: string; disabled: boolean; created_at: string }[];
      total: number;
    }>();
    expect(body.total).toBe(body.items.length);
    expect(body.items.map((u) => u.email)).toEqual(
      expect.arrayContaining(['first-admin@example.test', 'reader.one@example.test']),
    );
    const times = body.items.map((u) => Date.parse(u.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const found = await call('GET', '/admin/users?search=READER_', admin.headers);
    expect(found.json<{ items: { email: string }[] }>().items.map((u) => u.email)).toEqual([
      'reader_two@example.test',
    ]);
  });

  it('adds an account (409 for a taken e-mail, 422 for a weak password)', async () => {
    const { call, login } = api(t);
    const add = (body: object) => call('POST', '/admin/users', admin.headers, body);
    const made = await add({
      email: 'Added@Example.test',
      password: 'an-added-passphrase',
      display_name: 'Added',
    });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({
      created: true,
      user: { email: 'added@example.test', role: 'user', disabled: false },
    });
    expect((await add({ email: 'added@example.test', password: 'an-added-passphrase' })).statusCode).toBe(
      409,
    );
    expect((await add({ email: 'weak@example.test', password: 'qwertyuiop' })).json().error.code).toBe(
      'weak_password',
    );
    const upsert = await add({
      email: 'added@example.test',
      password: 'another-passphrase',
      role: 'admin',
      update_existing: true,
    });
    expect(upsert.statusCode).toBe(200);
    expect(upsert.json()).toMatchObject({ created: false, user: { role: 'admin' } });
    expect((await login('added@example.test', 'another-passphrase')).statusCode).toBe(200);
  });

  it('promotes and demotes; the role counts at once for tokens already out', async () => {
    const { call } = api(t);
    const reader = await t.login('user', 'promoted@example.test');
    expect((await call('GET', '/admin/users', reader.headers)).statusCode).toBe(403);
    const up = await call('PATCH', `/admin/users/${reader.id}`, admin.headers, { role: 'admin' });
    expect(up.json()).toMatchObject({ role: 'admin' });
    expect((await call('GET', '/admin/users', reader.headers)).statusCode).toBe(200);
    await call('PATCH', `/admin/users/${reader.id}`, admin.headers, { role: 'user' });
    expect((await call('GET', '/admin/users', reader.headers)).statusCode).toBe(403);
    expect(
      (await call('PATCH', `/admin/users/${crypto.randomUUID()}`, admin.headers, { role: 'user' }))
        .statusCode,
    ).toBe(404);
  });

  it('disables: no sign-in (403 account_disabled after the right password), tokens refused at once; enables again', async () => {
    const { call, login, me } = api(t);
    const reader = await t.login('user', 'disabled@example.test');
    const off = await call('PATCH', `/admin/users/${reader.id}`, admin.headers, { disabled: true });
    expect(off.json()).toMatchObject({ disabled: true });
    expect((await me(reader.token)).statusCode).toBe(401);
    const refused = await login('disabled@example.test', PASSWORD);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('account_disabled');
    // a wrong password still says only "invalid": the state is told to whoever knows the password
    expect((await login('disabled@example.test', 'not-the-password')).json().error.code).toBe(
      'invalid_credentials',
    );
    await call('PATCH', `/admin/users/${reader.id}`, admin.headers, { disabled: false });
    expect((await login('disabled@example.test', PASSWORD)).statusCode).toBe(200);
    // the token of before the disabling stays dead
    expect((await me(reader.token)).statusCode).toBe(401);
  });

  it('keeps the last enabled admin: no demotion or disabling of it, even by two admins at once', async () => {
    const t2 = await buildTestApp({ db: kind });
    try {
      const { call } = api(t2);
      const a = await t2.login('admin', 'only-admin@example.test');
      for (const body of [{ role: 'user' }, { disabled: true }, { role: 'admin', disabled: true }]) {
        const res = await call('PATCH', `/admin/users/${a.id}`, a.headers, body);
        expect(res.statusCode).toBe(409);
        expect(res.json().error.code).toBe('last_admin');
      }
      const b = await t2.login('admin', 'second-admin@example.test');
      // each demotes the other at the same moment: one of them stays admin
      const results = await Promise.all([
        call('PATCH', `/admin/users/${b.id}`, a.headers, { role: 'user' }),
        call('PATCH', `/admin/users/${a.id}`, b.headers, { role: 'user' }),
      ]);
      const admins = await t2.container.database.db.select().from(users).where(eq(users.role, 'admin'));
      expect(admins).toHaveLength(1);
      expect(results.map((r) => r.statusCode).sort()).toContain(200);
      // a disabled admin does not count as the one left
      const c = await t2.login('admin', 'third-admin@example.test');
      const remaining = admins[0]!.id;
      const cHeaders = c.headers;
      expect(
        (await call('PATCH', `/admin/users/${remaining}`, cHeaders, { disabled: true })).statusCode,
      ).toBe(200);
      expect(
        (await call('PATCH', `/admin/users/${c.id}`, cHeaders, { role: 'user' })).json().error.code,
      ).toBe('last_admin');
    } finally {
      await t2.close();
    }
  });

  it('resets with a temporary password: set now, shown once, every session signed out', async () => {
    const { call, login, me } = api(t);
    const reader = await t.login('user', 'temp@example.test');
    const res = await call('POST', `/admin/users/${reader.id}/password-reset`, admin.headers, {
      mode: 'temporary',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { password } = res.json<{ mode: 'temporary'; password: string }>();
    expect(password).toMatch(/^[A-Za-z2-9]{16}$/);
    expect((await me(reader.token)).statusCode).toBe(401);
    expect((await login('temp@example.test', PASSWORD)).statusCode).toBe(401);
    expect((await login('temp@example.test', password)).statusCode).toBe(200);
  });

  it('resets with a one-time link: stored hashed, used once, refused when expired, the old password kept until used', async () => {
    const { call, login } = api(t);
    const reader = await t.login('user', 'link@example.test');
    const issue = async () => {
      const res = await call('POST', `/admin/users/${reader.id}/password-reset`, admin.headers, {
        mode: 'link',
      });
      expect(res.statusCode).toBe(200);
      const body = res.json<{ mode: 'link'; url: string; expires_at: string }>();
      expect(body.url).toMatch(/^http:\/\/localhost:3000\/reset-password#token=[\w-]{43}$/);
      expect(Date.parse(body.expires_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
      return new URL(body.url).hash.slice('#token='.length);
    };
    const token = await issue();
    const rows = await t.container.database.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.userId, reader.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect((await login('link@example.test', PASSWORD)).statusCode).toBe(200);

    const confirm = (tok: string, password: string) =>
      call('POST', '/auth/password-reset/confirm', {}, { token: tok, password });
    expect((await confirm(token, 'qwertyuiop')).json().error.code).toBe('weak_password');
    const used = await confirm(token, 'a-reset-passphrase');
    expect(used.statusCode).toBe(200);
    expect((await api(t).me(used.json<{ access_token: string }>().access_token)).statusCode).toBe(200);
    expect((await login('link@example.test', PASSWORD)).statusCode).toBe(401);
    const again = await confirm(token, 'yet-another-passphrase');
    expect(again.statusCode).toBe(422);
    expect(again.json().error.code).toBe('reset_link_invalid');

    const late = await issue();
    await t.container.database.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.tokenHash, createHash('sha256').update(late).digest('hex')));
    expect((await confirm(late, 'yet-another-passphrase')).json().error.code).toBe('reset_link_invalid');
    expect((await confirm('x'.repeat(43), 'yet-another-passphrase')).json().error.code).toBe(
      'reset_link_invalid',
    );

    // a password change ends the open links
    const open = await issue();
    const session = (await login('link@example.test', 'a-reset-passphrase')).json<{ access_token: string }>();
    await call('POST', '/auth/password', bearer(session.access_token), {
      current_password: 'a-reset-passphrase',
      new_password: 'changed-passphrase',
    });
    expect((await confirm(open, 'yet-another-passphrase')).json().error.code).toBe('reset_link_invalid');
  });
});

describe('forgot password by e-mail (SMTP peer)', () => {
  let t: TestApp;
  const smtp = new SmtpPeer();
  beforeAll(async () => {
    await smtp.start();
    t = await buildTestApp({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'site@example.test',
        PUBLIC_BASE_URL: 'https://news.example.test',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  const waitForMail = async (to: string, count: number) => {
    for (let i = 0; i < 100; i++) {
      const got = smtp.messages.filter((m) => m.to.includes(to));
      if (got.length >= count) return got;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no mail to ${to}`);
  };

  it('mails a one-hour link in the page language; unknown addresses get the same answer and no mail', async () => {
    const { call, login } = api(t);
    expect((await call('GET', '/auth/registration')).json()).toMatchObject({ password_reset_by_email: true });
    await t.login('user', 'forgot@example.test');
    const known = await call(
      'POST',
      '/auth/password-reset',
      {},
      { email: 'Forgot@example.test', locale: 'zh-TW' },
    );
    const unknown = await call('POST', '/auth/password-reset', {}, { email: 'nobody@example.test' });
    expect(known.statusCode).toBe(204);
    expect(unknown.statusCode).toBe(204);
    expect(known.body).toBe(unknown.body);

    const [mail] = await waitForMail('forgot@example.test', 1);
    expect(mail!.subject).toBe('重設您的密碼');
    const link = /https:\/\/news\.example\.test\/reset-password#token=([\w-]{43})/.exec(mail!.text);
    expect(link).not.toBeNull();
    // asked again at once: no second e-mail (no mail bombing), the same answer
    expect(
      (await call('POST', '/auth/password-reset', {}, { email: 'forgot@example.test' })).statusCode,
    ).toBe(204);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages.filter((m) => m.to.includes('forgot@example.test'))).toHaveLength(1);
    expect(smtp.messages.some((m) => m.to.includes('nobody@example.test'))).toBe(false);

    const confirmed = await call(
      'POST',
      '/auth/password-reset/confirm',
      {},
      { token: link![1], password: 'mailed-passphrase' },
    );
    expect(confirmed.statusCode).toBe(200);
    expect((await login('forgot@example.test', 'mailed-passphrase')).statusCode).toBe(200);
    const rows = await t.container.database.db.select().from(passwordResets);
    const mailed = rows.find((r) => r.origin === 'email')!;
    // created_at is the database's clock, expires_at the service's: equal within a few seconds
    expect(Math.abs(mailed.expiresAt.getTime() - mailed.createdAt.getTime() - 3600_000)).toBeLessThan(5000);
  });

  it('is 503 without SMTP, and a disabled account gets no mail', async () => {
    const t2 = await buildTestApp();
    try {
      const res = await api(t2).call('POST', '/auth/password-reset', {}, { email: 'x@example.test' });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('mail_not_configured');
    } finally {
      await t2.close();
    }
    const admin = await t.login('admin');
    const off = await t.login('user', 'off@example.test');
    await api(t).call('PATCH', `/admin/users/${off.id}`, admin.headers, { disabled: true });
    expect(
      (await api(t).call('POST', '/auth/password-reset', {}, { email: 'off@example.test' })).statusCode,
    ).toBe(204);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages.some((m) => m.to.includes('off@example.test'))).toBe(false);
  });
});
