import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticle } from '../helpers/article-factories.js';
import { makeToken } from '../mcp/mcp-helpers.js';
import { longItemId } from '../../src/domain/greader.js';

type Caller = 'anonymous' | 'reader' | 'admin' | 'revoked token' | 'read token' | 'write token';
type Kind = 'read' | 'write' | 'admin';

/**
 * Every Google Reader route × who calls it. Reads: any account (session or token, either scope).
 * Writes (edit-tag, mark-all-as-read): not a `read` token (403 token_read_only). Subscriptions: an
 * admin only (403 for a reader). Anonymous and a revoked token: 401 on everything, at once.
 * A call that gets past the guards is answered 200, or 400 for the deliberately empty admin input.
 */
describe('Google Reader API: who may call what', () => {
  let t: TestApp;
  const headers: Record<Caller, Record<string, string>> = {} as never;
  let item: string;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  beforeAll(async () => {
    t = await buildTestApp();
    const reader = await t.login('user');
    const admin = await t.login('admin');
    const gl = (token: string) => ({ authorization: `GoogleLogin auth=${token}` });
    headers.anonymous = {};
    headers.reader = reader.headers;
    headers.admin = admin.headers;
    headers['read token'] = gl((await makeToken(t, reader, 'read')).token);
    headers['write token'] = gl((await makeToken(t, reader, 'write')).token);
    const revoked = await makeToken(t, reader, 'write');
    await t.app.inject({ method: 'DELETE', url: `/user/tokens/${revoked.id}`, headers: reader.headers });
    headers['revoked token'] = gl(revoked.token);
    item = longItemId((await makeArticle(t.container.database.db)).id);
  });
  afterAll(() => t.close());

  const RS = 'user/-/state/com.google/reading-list';
  const routes: { kind: Kind; method: 'GET' | 'POST'; url: string; body?: string }[] = [
    { kind: 'read', method: 'GET', url: '/reader/api/0/token' },
    { kind: 'read', method: 'GET', url: '/reader/api/0/user-info' },
    { kind: 'read', method: 'GET', url: '/reader/api/0/tag/list?output=json' },
    { kind: 'read', method: 'GET', url: '/reader/api/0/subscription/list?output=json' },
    { kind: 'read', method: 'GET', url: '/reader/api/0/unread-count?output=json' },
    { kind: 'read', method: 'GET', url: `/reader/api/0/stream/contents/${RS}?n=2` },
    { kind: 'read', method: 'GET', url: `/reader/api/0/stream/items/ids?s=${RS}` },
    { kind: 'read', method: 'POST', url: '/reader/api/0/stream/items/ids', body: `s=${RS}&n=5` },
    { kind: 'read', method: 'GET', url: '/reader/api/0/stream/items/contents?i=1' },
    { kind: 'read', method: 'POST', url: '/reader/api/0/stream/items/contents', body: 'i=1' },
    { kind: 'read', method: 'GET', url: `/reader/atom/${encodeURIComponent(RS)}?n=2` },
    {
      kind: 'write',
      method: 'POST',
      url: '/reader/api/0/edit-tag',
      body: 'i=1&a=user/-/state/com.google/read',
    },
    {
      kind: 'write',
      method: 'POST',
      url: '/reader/api/0/mark-all-as-read',
      body: `s=user/-/state/com.google/starred`,
    },
    { kind: 'admin', method: 'POST', url: '/reader/api/0/subscription/edit', body: 'ac=edit' },
    { kind: 'admin', method: 'POST', url: '/reader/api/0/subscription/quickadd', body: 'quickadd=not-a-url' },
  ];

  const expected = (caller: Caller, kind: Kind): number => {
    if (caller === 'anonymous' || caller === 'revoked token') return 401;
    if (caller === 'read token' && kind !== 'read') return 403;
    if (kind === 'admin') return caller === 'admin' ? 400 : 403;
    return 200;
  };

  for (const caller of [
    'anonymous',
    'reader',
    'admin',
    'revoked token',
    'read token',
    'write token',
  ] as const)
    it(`${caller}`, async () => {
      for (const r of routes) {
        const res = await t.app.inject({
          method: r.method,
          url: r.url.replace('i=1', `i=${encodeURIComponent(item)}`),
          headers: { ...headers[caller], ...(r.body ? form : {}) },
          ...(r.body ? { payload: r.body.replace('i=1', `i=${encodeURIComponent(item)}`) } : {}),
        });
        expect(res.statusCode, `${caller} ${r.method} ${r.url}: ${res.body.slice(0, 200)}`).toBe(
          expected(caller, r.kind),
        );
        if (caller === 'read token' && r.kind !== 'read')
          expect(res.json().error.code).toBe('token_read_only');
      }
    });
});
