import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { webRoleInFront } from '../helpers/web-role.js';
import { insertArticle, insertTopic } from '../helpers/report-factories.js';
import { makeToken } from '../mcp/mcp-helpers.js';

/**
 * A script's personal access token at the site's one public address: both roles listen on
 * loopback and curl-like requests go to the web role's `/api/proxy`. The token reaches the api as
 * it came; a read token still cannot write; a session cookie wins over a token; any other bearer
 * (a forged or session token a page supplies) is never carried.
 */
describe('web role: personal access tokens through /api/proxy', () => {
  let t: TestApp;
  let web: FastifyInstance;
  let webUrl: string;
  let reader: { id: string; headers: Record<string, string>; token: string };
  let article: { id: string };

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

  const call = (method: string, path: string, headers: Record<string, string>) =>
    fetch(`${webUrl}/api/proxy${path}`, { method, headers });

  it("reads the reader's own data and marks read with a write token; a read token is refused writes", async () => {
    const write = await makeToken(t, reader, 'write');
    const read = await makeToken(t, reader, 'read');
    const me = await call('GET', '/auth/me', { authorization: `Bearer ${read.token}` });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { id: string }).id).toBe(reader.id);

    const refused = await call('PUT', `/articles/${article.id}/read`, {
      authorization: `Bearer ${read.token}`,
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('token_read_only');

    const marked = await call('PUT', `/articles/${article.id}/read`, {
      authorization: `Bearer ${write.token}`,
    });
    expect(marked.status).toBeLessThan(300);
    const seen = await t.app.inject({
      method: 'GET',
      url: `/articles/${article.id}`,
      headers: reader.headers,
    });
    expect(seen.json<{ is_read: boolean }>().is_read).toBe(true);
  });

  it('answers 401 for a revoked token, and never carries a bearer that is not a personal access token', async () => {
    const revoked = await makeToken(t, reader, 'write');
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/user/tokens/${revoked.id}`,
      headers: reader.headers,
    });
    expect(gone.statusCode).toBe(204);
    expect((await call('GET', '/auth/me', { authorization: `Bearer ${revoked.token}` })).status).toBe(401);
    // the reader's own session token, as a page script might hold it: not a credential here
    expect((await call('GET', '/auth/me', { authorization: `Bearer ${reader.token}` })).status).toBe(401);
  });
});
