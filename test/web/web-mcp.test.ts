import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { webRoleInFront } from '../helpers/web-role.js';
import { insertArticle, insertTopic } from '../helpers/report-factories.js';
import { call, callError, connect, makeToken } from '../mcp/mcp-helpers.js';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'web', version: '1' } },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * /mcp at the web role's public address: both roles listening on loopback, the SDK's own client
 * pointed at the web role with a personal access token. The web role carries the caller's bearer
 * token and nothing else: the session cookie of a signed-in browser is never turned into a
 * credential for /mcp, and the api's 401 challenge comes back as it is.
 */
describe('web role: /mcp with a personal access token', () => {
  let t: TestApp;
  let web: FastifyInstance;
  let webUrl: string;
  let reader: { id: string; headers: Record<string, string>; token: string };
  let article: { id: string; url: string };

  beforeAll(async () => {
    t = await buildTestApp();
    ({ web, webUrl } = await webRoleInFront(t));
    const topic = await insertTopic(t.container.database.db, 'Fusion');
    article = await insertArticle(t.container.database.db, topic.id, { title: 'A stellarator record' });
    reader = await t.login('user');
  });
  afterAll(async () => {
    await web?.close();
    await t?.close();
  });

  it('the SDK client lists the tools and calls them; a write token marks read, a read token cannot', async () => {
    const writer = await connect(`${webUrl}/mcp`, (await makeToken(t, reader, 'write')).token);
    const readOnly = await connect(`${webUrl}/mcp`, (await makeToken(t, reader, 'read')).token);
    try {
      const { tools } = await writer.listTools();
      expect(tools).toHaveLength(7);
      const found = await call<{ items: { id: string; url: string }[] }>(writer, 'search_articles', {
        query: 'stellarator',
      });
      expect(found.items.map((a) => a.url)).toEqual([article.url]);
      expect(await callError(readOnly, 'mark_read', { id: article.id })).toMatch(/^token_read_only:/);
      expect(await call(writer, 'mark_read', { id: article.id })).toMatchObject({ is_read: true });
      // the web app's API sees it
      const seen = await t.app.inject({ url: `/articles/${article.id}`, headers: reader.headers });
      expect(seen.json()).toMatchObject({ is_read: true });
    } finally {
      await Promise.all([writer.close(), readOnly.close()]);
    }
  });

  it('refuses without a token, with a session (as cookie or bearer) and with a revoked token', async () => {
    const revoked = await makeToken(t, reader, 'write');
    await t.app.inject({ method: 'DELETE', url: `/user/tokens/${revoked.id}`, headers: reader.headers });
    const cases: [string, Record<string, string>, string][] = [
      ['anonymous', {}, 'unauthorized'],
      ['the session cookie', { cookie: `ai_session=${reader.token}` }, 'unauthorized'],
      ['the session as bearer', reader.headers, 'invalid_token'],
      ['a revoked token', { authorization: `Bearer ${revoked.token}` }, 'invalid_token'],
    ];
    for (const [who, headers, code] of cases) {
      const res = await fetch(`${webUrl}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, ...headers },
        body: JSON.stringify(INITIALIZE),
      });
      expect(res.status, who).toBe(401);
      expect(res.headers.get('www-authenticate'), who).toMatch(/^Bearer realm="article-intel"/);
      expect(res.headers.get('set-cookie'), who).toBeNull();
      expect(((await res.json()) as { error: { code: string } }).error.code, who).toBe(code);
    }
  });

  it('answers GET and DELETE with 405 as the api does, and a foreign page’s POST is refused', async () => {
    const auth = { authorization: `Bearer ${(await makeToken(t, reader, 'read')).token}` };
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${webUrl}/mcp`, { method, headers: { accept: 'text/event-stream', ...auth } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
    const foreign = await fetch(`${webUrl}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...auth, origin: 'https://evil.example' },
      body: JSON.stringify(INITIALIZE),
    });
    expect(foreign.status).toBe(403);
  });
});
