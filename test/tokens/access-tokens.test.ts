import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle } from '../helpers/article-factories.js';
import { accessTokens } from '../../src/infrastructure/db/schema/index.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';

type Headers = Record<string, string>;
interface Created {
  id: string;
  name: string;
  scope: 'read' | 'write';
  admin: boolean;
  prefix: string;
  token: string;
  created_at: string;
  last_used_at: string | null;
}

/**
 * Personal access tokens through the HTTP API: made with a session and shown once, stored as a
 * hash, accepted as Bearer with their scope enforced, refused at once when revoked or when the
 * owner is disabled; admin rights only from an admin's own session, and never raised later.
 */
describe.each(dbKinds())('personal access tokens (%s)', (db) => {
  let t: TestApp;
  let reader: { id: string; headers: Headers };
  let admin: { id: string; headers: Headers };
  let articleId: string;

  beforeAll(async () => {
    t = await buildTestApp({ db });
    reader = await t.login('user');
    admin = await t.login('admin');
    articleId = (await makeArticle(t.container.database.db)).id;
  });
  afterAll(() => t.close());

  const create = async (headers: Headers, body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/user/tokens', headers, payload: body });
  const make = async (headers: Headers, scope: 'read' | 'write', name = `t ${Math.random()}`) => {
    const res = await create(headers, { name, scope });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Created>();
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const call = (
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    url: string,
    headers: Headers,
    payload?: Record<string, unknown>,
  ) => t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });

  it('is answered once, recognisable, and stored only as a SHA-256 of the whole token', async () => {
    const res = await create(reader.headers, { name: '  laptop script  ', scope: 'read' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<Created>();
    expect(body).toMatchObject({ name: 'laptop script', scope: 'read', admin: false, last_used_at: null });
    expect(body.token).toMatch(/^ais_pat_[0-9A-Za-z]{10}_[0-9A-Za-z]{40}$/);
    expect(body.token.startsWith(`${body.prefix}_`)).toBe(true);

    const list = await call('GET', '/user/tokens', reader.headers);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(body.token.slice(body.prefix.length));
    expect(list.json<{ items: Created[] }>().items.map((i) => i.id)).toContain(body.id);
    expect(list.json<{ items: Created[] }>().items[0]).not.toHaveProperty('token');

    const [row] = await t.container.database.db
      .select()
      .from(accessTokens)
      .where(eq(accessTokens.id, body.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(body.token).digest('hex'));
    // no column holds the secret part
    const dump = JSON.stringify(row);
    expect(dump).not.toContain(body.token.slice(-40));
  });

  it('authenticates as its owner; a read token reads and is refused on every write with token_read_only', async () => {
    const { token } = await make(reader.headers, 'read');
    const me = await call('GET', '/auth/me', bearer(token));
    expect(me.statusCode).toBe(200);
    expect(me.json<{ id: string }>().id).toBe(reader.id);
    expect((await call('GET', '/me/unread-counts', bearer(token))).statusCode).toBe(200);

    for (const [method, url, payload] of [
      ['PUT', `/articles/${articleId}/read`, undefined],
      ['POST', `/user/favorites/${articleId}`, undefined],
      ['POST', '/user/subscriptions', { topic_id: articleId }],
      // public writes too: a read token changes nothing anywhere
      ['POST', `/articles/${articleId}/view`, undefined],
    ] as const) {
      const res = await call(method, url, bearer(token), payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('token_read_only');
    }
    // the reader view does not mark the article read for a read token either
    expect(
      (await call('GET', `/articles/${articleId}`, bearer(token))).json<{ is_read: boolean }>().is_read,
    ).toBe(false);
  });

  it('a write token changes the owner’s own state', async () => {
    const { token } = await make(reader.headers, 'write');
    expect((await call('PUT', `/articles/${articleId}/read`, bearer(token))).statusCode).toBe(204);
    const detail = await call('GET', `/articles/${articleId}`, reader.headers);
    expect(detail.json<{ is_read: boolean }>().is_read).toBe(true);
    expect((await call('DELETE', `/articles/${articleId}/read`, bearer(token))).statusCode).toBe(204);
  });

  it('is refused the moment it is revoked, and only its owner can revoke it', async () => {
    const { id, token } = await make(reader.headers, 'write');
    expect((await call('GET', '/auth/me', bearer(token))).statusCode).toBe(200);
    const other = await t.login('user');
    const foreign = await call('DELETE', `/user/tokens/${id}`, other.headers);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json<{ error: { code: string } }>().error.code).toBe('token_not_found');
    expect((await call('DELETE', `/user/tokens/${id}`, reader.headers)).statusCode).toBe(204);
    const after = await call('GET', '/auth/me', bearer(token));
    expect(after.statusCode).toBe(401);
    expect(after.json<{ error: { code: string } }>().error.code).toBe('invalid_token');
    expect((await call('DELETE', `/user/tokens/${id}`, reader.headers)).statusCode).toBe(404);
  });

  it('a malformed or altered token is refused like an unknown one', async () => {
    const { token } = await make(reader.headers, 'read');
    const altered = token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a');
    for (const bad of [altered, 'ais_pat_short', `${token}x`, token.replace('ais_pat_', 'ais_pat_x')]) {
      const res = await call('GET', '/auth/me', bearer(bad));
      expect(res.statusCode, bad).toBe(401);
    }
  });

  it('cannot manage tokens, sign out or change the password: those need the session', async () => {
    const { token } = await make(reader.headers, 'write');
    for (const [method, url, payload] of [
      ['GET', '/user/tokens', undefined],
      ['POST', '/user/tokens', { name: 'minted by a token', scope: 'write' }],
      ['POST', '/auth/logout', undefined],
      ['POST', '/auth/logout-others', undefined],
      ['POST', '/auth/password', { current_password: 'password-123', new_password: 'another-long-one' }],
    ] as const) {
      const res = await call(method, url, bearer(token), payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('session_required');
    }
    // the session is still good: the token ended nothing
    expect((await call('GET', '/auth/me', reader.headers)).statusCode).toBe(200);
  });

  it('admin only when an admin made it with the admin session; a demotion counts at once, a promotion never', async () => {
    const adminToken = await make(admin.headers, 'read');
    expect(adminToken.admin).toBe(true);
    expect((await call('GET', '/admin/users', bearer(adminToken.token))).statusCode).toBe(200);
    // a read admin token reads admin pages but changes nothing
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/admin/users/${reader.id}`,
      headers: bearer(adminToken.token),
      payload: { role: 'admin' },
    });
    expect(patch.statusCode).toBe(403);

    const readerToken = await make(reader.headers, 'write');
    expect(readerToken.admin).toBe(false);
    expect((await call('GET', '/admin/users', bearer(readerToken.token))).statusCode).toBe(403);

    // promote the reader: their old token stays a reader's
    const second = await t.login('admin');
    const promote = await t.app.inject({
      method: 'PATCH',
      url: `/admin/users/${reader.id}`,
      headers: second.headers,
      payload: { role: 'admin' },
    });
    expect(promote.statusCode).toBe(200);
    expect((await call('GET', '/admin/users', bearer(readerToken.token))).statusCode).toBe(403);

    // demote the admin: the admin token loses admin rights on its next request
    const demote = await t.app.inject({
      method: 'PATCH',
      url: `/admin/users/${admin.id}`,
      headers: second.headers,
      payload: { role: 'user' },
    });
    expect(demote.statusCode).toBe(200);
    expect((await call('GET', '/admin/users', bearer(adminToken.token))).statusCode).toBe(403);
    expect((await call('GET', '/auth/me', bearer(adminToken.token))).statusCode).toBe(200);
  });

  it('stops working when its owner is disabled, and works again when enabled', async () => {
    const owner = await t.login('user');
    const { token } = await make(owner.headers, 'read');
    const boss = await t.login('admin');
    const set = (disabled: boolean) =>
      t.app.inject({
        method: 'PATCH',
        url: `/admin/users/${owner.id}`,
        headers: boss.headers,
        payload: { disabled },
      });
    expect((await set(true)).statusCode).toBe(200);
    expect((await call('GET', '/auth/me', bearer(token))).statusCode).toBe(401);
    expect((await set(false)).statusCode).toBe(200);
    expect((await call('GET', '/auth/me', bearer(token))).statusCode).toBe(200);
  });

  it('records its last use at most once a minute', async () => {
    const { id, token } = await make(reader.headers, 'read');
    const lastUsed = async () => {
      const [row] = await t.container.database.db
        .select({ at: accessTokens.lastUsedAt })
        .from(accessTokens)
        .where(eq(accessTokens.id, id));
      return row!.at;
    };
    expect(await lastUsed()).toBeNull();
    await call('GET', '/auth/me', bearer(token));
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await call('GET', '/auth/me', bearer(token));
    expect((await lastUsed())!.getTime()).toBe(first!.getTime());
    // a use more than a minute after the recorded one is recorded again
    await t.container.database.db.execute(
      sql`update access_tokens set last_used_at = now() - interval '61 seconds' where id = ${id}`,
    );
    const aged = await lastUsed();
    await call('GET', '/auth/me', bearer(token));
    expect((await lastUsed())!.getTime()).toBeGreaterThan(aged!.getTime());
    const listed = (await call('GET', '/user/tokens', reader.headers)).json<{ items: Created[] }>();
    expect(listed.items.find((i) => i.id === id)!.last_used_at).not.toBeNull();
  });

  it('refuses a second token of the same name, an empty name and a 51st token', async () => {
    const owner = await t.login('user');
    await make(owner.headers, 'read', 'backup');
    const again = await create(owner.headers, { name: 'backup', scope: 'write' });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: { code: string } }>().error.code).toBe('token_name_taken');
    const blank = await create(owner.headers, { name: '   ', scope: 'read' });
    expect(blank.statusCode).toBe(422);
    expect((await create(owner.headers, { name: 'x', scope: 'admin' })).statusCode).toBe(422);
    for (let i = 1; i < 50; i++) await make(owner.headers, 'read', `n${i}`);
    const over = await create(owner.headers, { name: 'one too many', scope: 'read' });
    expect(over.statusCode).toBe(409);
    expect(over.json<{ error: { code: string } }>().error.code).toBe('token_limit_reached');
    const [n] = rowsOf<{ n: number }>(
      await t.container.database.db.execute(
        sql`select count(*)::int as n from access_tokens where user_id = ${owner.id}`,
      ),
    );
    expect(n!.n).toBe(50);
  });
});
