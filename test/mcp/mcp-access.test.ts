import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticle } from '../helpers/article-factories.js';
import { call, callError, connect, makeToken } from './mcp-helpers.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'matrix', version: '1' },
  },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

type Caller =
  | 'anonymous'
  | 'reader session'
  | 'admin session'
  | 'read token'
  | 'write token'
  | 'admin token'
  | 'revoked token'
  | 'disabled owner token'
  | 'malformed token';

/**
 * Who gets into /mcp: a personal access token of an enabled account, of either scope; nobody
 * else (401 with a WWW-Authenticate challenge, not even a signed-in session). A revoked token is
 * refused on its very next call. The API's search limit counts the MCP searches too.
 */
describe('MCP server: who gets in', () => {
  let t: TestApp;
  let baseUrl: string;
  const headers: Partial<Record<Caller, Record<string, string>>> = {};
  let reader: { id: string; headers: Record<string, string> };

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_SEARCH_PER_MINUTE: '3' } });
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    reader = await t.login('user');
    const admin = await t.login('admin');
    const disabled = await t.login('user');
    headers.anonymous = {};
    headers['reader session'] = reader.headers;
    headers['admin session'] = admin.headers;
    headers['read token'] = bearer((await makeToken(t, reader, 'read')).token);
    headers['write token'] = bearer((await makeToken(t, reader, 'write')).token);
    headers['admin token'] = bearer((await makeToken(t, admin, 'write')).token);
    const revoked = await makeToken(t, reader, 'write');
    await t.app.inject({ method: 'DELETE', url: `/user/tokens/${revoked.id}`, headers: reader.headers });
    headers['revoked token'] = bearer(revoked.token);
    headers['disabled owner token'] = bearer((await makeToken(t, disabled, 'read')).token);
    await t.app.inject({
      method: 'PATCH',
      url: `/admin/users/${disabled.id}`,
      headers: admin.headers,
      payload: { disabled: true },
    });
    headers['malformed token'] = bearer('ais_pat_not-a-real-one');
  });
  afterAll(() => t?.close());

  const ALLOWED: Caller[] = ['read token', 'write token', 'admin token'];
  const CALLERS = Object.keys({
    anonymous: 1,
    'reader session': 1,
    'admin session': 1,
    'read token': 1,
    'write token': 1,
    'admin token': 1,
    'revoked token': 1,
    'disabled owner token': 1,
    'malformed token': 1,
  } satisfies Record<Caller, 1>) as Caller[];

  it.each(CALLERS)('POST, GET and DELETE /mcp × %s', async (caller) => {
    const post = await fetch(`${baseUrl}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...headers[caller] },
      body: JSON.stringify(INITIALIZE),
    });
    const get = await fetch(`${baseUrl}/mcp`, {
      headers: { accept: 'text/event-stream', ...headers[caller] },
    });
    const del = await fetch(`${baseUrl}/mcp`, { method: 'DELETE', headers: headers[caller] });
    if (ALLOWED.includes(caller)) {
      expect(post.status).toBe(200);
      const body = (await post.json()) as { result: { serverInfo: { name: string } } };
      expect(body.result.serverInfo.name).toBe('article-intel');
      // stateless: no stream of server messages, no session to end
      expect([get.status, del.status]).toEqual([405, 405]);
      expect(get.headers.get('allow')).toBe('POST');
      return;
    }
    for (const res of [post, get, del]) {
      expect(res.status, res.url).toBe(401);
      const challenge = res.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer realm="article-intel"/);
      const code = ((await res.json()) as { error: { code: string } }).error.code;
      if (caller === 'anonymous') {
        expect(challenge).not.toContain('error=');
        expect(code).toBe('unauthorized');
      } else {
        expect(challenge).toContain('error="invalid_token"');
        expect(code).toBe('invalid_token');
      }
    }
  });

  it('a token revoked while a client is connected is refused on the next call', async () => {
    const { id, token } = await makeToken(t, reader, 'write');
    const client = await connect(`${baseUrl}/mcp`, token);
    expect((await call<{ items: unknown[] }>(client, 'list_topics')).items).toBeDefined();
    const gone = await t.app.inject({ method: 'DELETE', url: `/user/tokens/${id}`, headers: reader.headers });
    expect(gone.statusCode).toBe(204);
    await expect(client.callTool({ name: 'list_topics', arguments: {} })).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('invalid_token') as unknown,
    });
    await client.close();
  });

  it('the API’s search limit counts MCP searches of the same client: over it, a rate_limited tool error', async () => {
    await makeArticle(t.container.database.db, { title: 'Limits of search' });
    const client = await connect(`${baseUrl}/mcp`, (await makeToken(t, reader, 'read')).token);
    // one of the limit spent through the API
    const api = await fetch(`${baseUrl}/articles?q=limits`);
    expect(api.status).toBe(200);
    await call(client, 'search_articles', { query: 'limits' });
    await call(client, 'search_articles', { query: 'limits' });
    expect(await callError(client, 'search_articles', { query: 'limits' })).toMatch(
      /^rate_limited: too many requests, try again in \d+ s$/,
    );
    // browsing without a query is not counted, as on the API
    await call(client, 'search_articles', {});
    expect((await fetch(`${baseUrl}/articles?q=limits`)).status).toBe(429);
    await client.close();
  });
});
