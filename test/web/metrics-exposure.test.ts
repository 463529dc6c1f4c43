import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { isInternalOnly } from '../../src/web/proxy-path.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { webRoleInFront } from '../helpers/web-role.js';

/**
 * GET /metrics is for a Prometheus on the internal network. The web role (internet-facing) reaches
 * the api from loopback, which METRICS_ALLOWED_NETWORKS allows by default: it must not become a way
 * around that list, in any spelling of the path. And the api judges the original client of a
 * relayed request, not the proxy that relayed it.
 */
describe('/metrics is not answered through the web role, and the api judges the original client', () => {
  let t: TestApp;
  let web: FastifyInstance;
  let webUrl: string;

  beforeAll(async () => {
    t = await buildTestApp({ env: { METRICS_COLLECTOR: 'true' } });
    ({ web, webUrl } = await webRoleInFront(t, { trustedProxies: ['loopback'], timeoutMs: 5000 }));
  });
  afterAll(async () => {
    await web?.close();
    await t?.close();
  });

  /** a real socket sends the path verbatim (inject would normalise it first) */
  const rawGet = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${webUrl}/`, { path, method: 'GET', headers }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('the api itself answers its loopback scraper (the check below can fail)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });

  it.each([
    '/api/proxy/metrics',
    '/api/proxy//metrics',
    '/api/proxy/%2fmetrics',
    '/api/proxy/%2Fmetrics',
    '/api/proxy/metrics/',
    '/api/proxy/METRICS',
    '/api/proxy/metrics;x=1',
    '/api/proxy/metrics?name=x',
  ])('%s: 404 from the web role, for a foreign browser and for a local one', async (path) => {
    for (const headers of [{ 'x-forwarded-for': '203.0.113.7' }, {}] as Record<string, string>[]) {
      const res = await rawGet(path, headers);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.body).error.code, path).toBe('not_found');
      expect(res.body).not.toMatch(/target_info|# HELP/);
    }
  });

  it('other backend paths still pass; only the first segment of the backend path counts', async () => {
    expect((await rawGet('/api/proxy/topics')).status).toBe(200);
    expect(isInternalOnly('/metrics')).toBe(true);
    expect(isInternalOnly('/media/metrics')).toBe(false);
    expect(isInternalOnly('/feeds/topics/metrics')).toBe(false);
    expect(isInternalOnly('/monitor/metrics')).toBe(false);
  });

  it('a request relayed by a trusted proxy for a foreign client is refused by the api (403)', async () => {
    const relayed = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(relayed.statusCode).toBe(403);
    expect(relayed.json().error.code).toBe('forbidden');
    // a foreign caller cannot claim to be loopback: its X-Forwarded-For is not believed
    const forged = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '192.0.2.10',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(forged.statusCode).toBe(403);
  });
});
