import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { HttpPeer } from '../peers/http-peer.js';
import { monitorEnv } from '../peers/monitor-peers.js';
import { loadConfig } from '../../src/config.js';
import { configuredSecrets } from '../../src/composition/container.js';
import { createLogger } from '../../src/infrastructure/logging/logger.js';
import { makeTopic } from '../helpers/article-factories.js';

/**
 * Drives the fault paths that used to put credentials into the log (a failed database write with
 * its bind parameters, an upstream 500 that echoes our request headers, a failing provider) and
 * scans every captured line for each secret planted on the way.
 */
describe('secret-free logs on fault paths', () => {
  const lines: string[] = [];
  const echo = (status: number) =>
    new HttpPeer((req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      // a misbehaving upstream that tells us everything we sent it
      res.end(JSON.stringify({ error: 'boom', request_headers: req.headers }));
    });
  const monitorPeer = echo(500);
  const embeddingPeer = echo(500);
  const EMBEDDING_KEY = 'emb-planted-key-7f3a9c';
  const PROVIDER_KEY = 'sk-planted-provider-key-1b2c3d';
  const COOKIE = 'ai_session=planted-cookie-value-99';
  const USER_EMAIL = 'planted-person@example.test';
  let t: TestApp;
  let adminToken: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    await monitorPeer.start();
    await embeddingPeer.start();
    env = {
      ...monitorEnv(monitorPeer.url),
      EMBEDDING_URL: embeddingPeer.url,
      EMBEDDING_API_KEY: EMBEDDING_KEY,
      EMBEDDING_DIMENSION: '384',
      EMBEDDING_RETRIES: '0',
      AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    };
    const logger = createLogger({
      level: 'debug',
      service: 'test',
      environment: 'local',
      destination: { write: (line: string) => void lines.push(line) },
      secrets: configuredSecrets(loadConfig(env)),
    });
    t = await buildTestApp({ env, logger });
    adminToken = (await t.login('admin')).token;
  });
  afterAll(async () => {
    await t.close();
    await monitorPeer.stop();
    await embeddingPeer.stop();
  });

  const headers = () => ({ authorization: `Bearer ${adminToken}`, cookie: COOKIE });

  it('drives each fault path to its error answer', async () => {
    const db = t.container.database.db;
    // database write failures: every new row of these tables is refused by the database
    await db.execute(sql.raw('alter table users add constraint planted_refusal check (false) not valid'));
    await db.execute(sql.raw('alter table providers add constraint planted_refusal check (false) not valid'));
    const register = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      headers: { cookie: COOKIE },
      payload: { email: USER_EMAIL, password: 'a-perfectly-fine-passphrase' },
    });
    expect(register.statusCode).toBe(500);
    const provider = await t.app.inject({
      method: 'POST',
      url: '/admin/providers',
      headers: headers(),
      payload: {
        name: 'planted',
        type: 'text',
        base_url: 'http://127.0.0.1:9/v1',
        model: 'm',
        api_key: PROVIDER_KEY,
        is_active: false,
      },
    });
    expect(provider.statusCode).toBe(500);

    // an upstream 500 that echoes the request, Basic auth included
    const now = Math.floor(Date.now() / 1000);
    const logs = await t.app.inject({
      method: 'GET',
      url: `/monitor/logs?query=${encodeURIComponent('{app="x"}')}&start=${now - 60}&end=${now}`,
      headers: headers(),
    });
    expect(logs.statusCode).toBe(502);
    expect(monitorPeer.requests.at(-1)?.headers.authorization).toMatch(/^Basic /);

    // a failing provider: the embedding endpoint answers 500 with our Bearer key in its body
    const topic = await makeTopic(db);
    const group = await t.app.inject({
      method: 'POST',
      url: '/tag-groups',
      headers: headers(),
      payload: { name: 'planted', display_name: 'Planted', topic_id: topic.id },
    });
    expect(group.statusCode).toBe(502);
    expect(embeddingPeer.requests.at(-1)?.headers.authorization).toBe(`Bearer ${EMBEDDING_KEY}`);
  });

  it('no captured line holds any planted secret', async () => {
    const all = lines.join('');
    const basic = monitorPeer.requests.at(-1)!.headers.authorization!.replace(/^Basic /, '');
    const planted: Record<string, string> = {
      'password hash': 'scrypt$',
      'monitor api key': 'secret-api-key-123',
      'monitor basic credential': basic,
      'embedding api key': EMBEDDING_KEY,
      'provider api_key': PROVIDER_KEY,
      'bearer token': adminToken,
      'token signature': adminToken.split('.')[2]!,
      cookie: 'planted-cookie-value-99',
      'user e-mail of the failed insert': USER_EMAIL,
      'auth secret': 'test-secret-test-secret-test-secret-0123',
    };
    const found = Object.entries(planted)
      .filter(([, secret]) => all.includes(secret))
      .map(([name]) => name);
    expect(found).toEqual([]);
    // the faults were logged, as what they are
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const dbErrors = parsed
      .map((l) => l.err as Record<string, unknown> | undefined)
      .filter((e) => e?.type === 'DatabaseError');
    expect(dbErrors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: '23514', table: 'users', constraint: 'planted_refusal' }),
        expect.objectContaining({ code: '23514', table: 'providers', constraint: 'planted_refusal' }),
      ]),
    );
    expect(
      parsed.some((l) => l.event === 'monitor.upstream_failed' && String(l.detail).includes('boom')),
    ).toBe(true);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(16 * 1024);
  });
});
