import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import {
  MATRIX,
  MonitorStorePeer,
  SEARCH,
  STREAMS,
  TRACE_BATCHES,
  monitorEnv,
} from '../peers/monitor-peers.js';
import { HttpPeer, sendJson } from '../peers/http-peer.js';

const basic = (user: string) => `Basic ${Buffer.from(`${user}:secret-api-key-123`).toString('base64')}`;
const q = (id: string, extra: object = {}) => ({
  id,
  query: `sum(count_over_time({service_name="x"} | json | event="${id}" [5m]))`,
  start: '1',
  end: '2',
  step: '60',
  ...extra,
});

describe('monitoring proxy', () => {
  const store = new MonitorStorePeer();
  const attacker = new HttpPeer((_req, res) => sendJson(res, 200, MATRIX));
  let t: TestApp;
  let admin: Record<string, string>;
  const logLines: string[] = [];

  beforeAll(async () => {
    await store.start();
    await attacker.start();
    const sink = new Writable({ write: (c: Buffer, _e, cb) => (logLines.push(c.toString()), cb()) });
    t = await buildTestApp({ env: monitorEnv(store.url), logger: pino({ level: 'debug' }, sink) });
    admin = (await t.login('admin')).headers;
  });
  afterAll(async () => {
    await t.close();
    await store.stop();
    await attacker.stop();
  });

  const get = (url: string, headers = admin) => t.app.inject({ url, headers });
  const post = (url: string, payload: object, headers = admin) =>
    t.app.inject({ method: 'POST', url, headers, payload });

  it('passes every single endpoint through unchanged with the datasource’s Basic auth', async () => {
    const metrics = await get('/monitor/metrics?query=up&start=1&end=2&step=60');
    expect(metrics.json()).toEqual(MATRIX);
    expect(store.requests.at(-1)).toMatchObject({
      path: '/prom/api/v1/query_range',
      headers: { authorization: basic('metrics-user') },
    });
    const logs = await get(`/monitor/logs?query=${encodeURIComponent('{service_name="x"}')}&start=1&end=2`);
    expect(logs.json()).toEqual(STREAMS);
    const lr = store.requests.at(-1)!;
    expect(lr.headers.authorization).toBe(basic('logs-user'));
    expect([lr.query.get('limit'), lr.query.get('direction')]).toEqual(['100', 'backward']);
    const traces = await get(
      `/monitor/traces?q=${encodeURIComponent('{ name = "scraper.run" }')}&start=1&end=2&minDuration=100ms`,
    );
    expect(traces.json()).toEqual(SEARCH);
    expect(store.requests.at(-1)!.query.get('limit')).toBe('20');
    expect(store.requests.at(-1)!.headers.authorization).toBe(basic('traces-user'));
    expect((await get('/monitor/traces/ABC123')).json()).toEqual(TRACE_BATCHES);
    store.traceBody = { resourceSpans: TRACE_BATCHES.batches };
    expect((await get('/monitor/traces/abc123')).json()).toEqual(TRACE_BATCHES);
    store.traceBody = TRACE_BATCHES;
  });

  it('answers a batch of 12 in about one upstream latency: 10 ok, 1 error, 1 stale', async () => {
    const queries = Array.from({ length: 12 }, (_, i) => q(`q${i}`));
    await post('/monitor/log-metrics/batch', { queries }); // primes the last-good copies
    store.latencyMs = 150;
    store.modes.set(queries[3]!.query, '500');
    store.modes.set(queries[7]!.query, '429');
    const started = Date.now();
    const res = await post('/monitor/log-metrics/batch', { queries });
    const elapsed = Date.now() - started;
    store.latencyMs = 0;
    store.modes.clear();
    const results = res.json().results as {
      id: string;
      status: string;
      stale?: boolean;
      error?: { code: string };
    }[];
    expect(results.map((r) => r.id)).toEqual(queries.map((x) => x.id));
    expect(results.filter((r) => r.status === 'ok' && !r.stale)).toHaveLength(10);
    expect(results[3]).toMatchObject({ status: 'error', error: { code: 'upstream_error' } });
    expect(results[7]).toMatchObject({ status: 'ok', stale: true });
    expect(elapsed).toBeLessThan(150 * 4);
    expect(logLines.join('')).toMatch(/"code":"rate_limited"/);
  });

  it('marks a stale single GET with headers, and maps other failures to structured errors', async () => {
    const url = `/monitor/logs?query=${encodeURIComponent('rate({a="b"}[1m])')}&start=1&end=2&step=60`;
    expect((await get(url)).statusCode).toBe(200);
    store.modes.set('rate({a="b"}[1m])', '429');
    const stale = await get(url);
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['x-monitor-stale']).toBe('true');
    expect(Date.parse(String(stale.headers['x-monitor-fetched-at']))).toBeGreaterThan(0);
    for (const [mode, status, code] of [
      ['500', 502, 'upstream_error'],
      ['garbage', 502, 'upstream_format'],
      ['not-json', 502, 'upstream_format'],
      ['hang', 504, 'upstream_timeout'],
      ['slow-drip', 504, 'upstream_timeout'],
    ] as const) {
      store.modes.set('up', mode);
      const res = await get('/monitor/metrics?query=up&start=1&end=2&step=60');
      expect([mode, res.statusCode, res.json().error.code]).toEqual([mode, status, code]);
    }
    store.modes.clear();
    const batch = await post('/monitor/log-metrics/batch', {
      queries: [{ id: 'streams', query: '{a="b"}', start: '1', end: '2' }],
    });
    expect(batch.json().results[0]).toMatchObject({ status: 'error', error: { code: 'upstream_format' } });
    expect(logLines.join('')).toContain('monitor.upstream_failed');
  });

  it('refuses more than 50 queries in a batch, and requires an admin', async () => {
    const big = await post('/monitor/logs/batch', {
      queries: Array.from({ length: 51 }, (_, i) => q(`b${i}`)),
    });
    expect(big.statusCode).toBe(422);
    expect((await post('/monitor/logs/batch', { queries: [] }, {})).statusCode).toBe(401);
    const user = await t.login('user');
    expect((await post('/monitor/logs/batch', { queries: [] }, user.headers)).statusCode).toBe(403);
    expect((await get('/monitor/panels', user.headers)).statusCode).toBe(403);
  });

  it('never reaches a host outside the allow-list, follows no redirect, and keeps credentials out of answers and logs', async () => {
    const before = store.requests.length;
    const attempts = [
      `/monitor/metrics?query=${encodeURIComponent(attacker.url)}&start=1&end=2&step=60`,
      `/monitor/metrics?query=up&start=${encodeURIComponent(`@${attacker.url.slice(7)}`)}&end=2&step=60`,
      `/monitor/logs?query=${encodeURIComponent(`//${attacker.url.slice(7)}/x`)}&start=1&end=2`,
      `/monitor/traces/${encodeURIComponent('../../x')}`,
      `/monitor/traces/${encodeURIComponent(`abc/${attacker.url}`)}`,
      `/monitor/traces/..%2F..%2Fadmin`,
    ];
    for (const a of attempts) await get(a);
    store.redirectTo = `${attacker.url}/stolen`;
    store.modes.set('redirected', 'redirect');
    const redirected = await get('/monitor/metrics?query=redirected&start=1&end=2&step=60');
    expect(redirected.json().error.code).toBe('upstream_error');
    store.modes.clear();
    expect(attacker.requests).toHaveLength(0);
    // client values only ever travel as query parameters of the fixed paths
    for (const r of store.requests.slice(before))
      expect(['/prom/api/v1/query_range', '/loki/api/v1/query_range', '/api/search']).toContain(r.path);
    const everything = logLines.join('');
    expect(everything).not.toContain('secret-api-key-123');
    expect(everything).not.toContain(basic('logs-user').slice(6));
    expect(redirected.body).not.toContain(store.url);
  });

  it('builds every dashboard query from the global filters', async () => {
    const a = (await get('/monitor/panels?range=6h&env=all')).json();
    const b = (await get('/monitor/panels?range=7d&env=production')).json();
    expect(a.refresh_interval_seconds).toBe(60);
    const tabs = new Set(a.panels.map((p: { tab: string }) => p.tab));
    expect([...tabs].sort()).toEqual(['logs', 'operations', 'traces']);
    expect(a.panels.some((p: { datasource: string }) => p.datasource === 'metrics')).toBe(false);
    for (const p of b.panels) {
      const expr = p.query.query ?? p.query.q;
      expect(expr).toContain('production');
      const other = a.panels.find((x: { id: string }) => x.id === p.id);
      expect(p.query.start).not.toBe(other.query.start);
    }
    const levels = a.panels
      .filter((p: { kind: string }) => p.kind === 'logs')
      .map((p: { level: string }) => p.level);
    expect(levels.sort()).toEqual(['error', 'info', 'warn']);
    expect((await get('/monitor/panels?range=1y')).statusCode).toBe(422);
  });
});

describe('monitoring proxy without credentials', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = (await t.login('admin')).headers;
  });
  afterAll(() => t.close());

  it('answers 503 not_configured on all four batch endpoints and the single endpoints', async () => {
    for (const kind of ['metrics', 'logs', 'log-metrics', 'traces']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/monitor/${kind}/batch`,
        headers: admin,
        payload: { queries: [q('x')] },
      });
      expect([kind, res.statusCode, res.json().error.code]).toEqual([kind, 503, 'not_configured']);
    }
    for (const url of [
      '/monitor/metrics?query=up&start=1&end=2&step=60',
      '/monitor/logs?query=x&start=1&end=2',
      '/monitor/traces?q=x',
      '/monitor/traces/abc',
    ]) {
      expect((await t.app.inject({ url, headers: admin })).statusCode).toBe(503);
    }
    // the catalog still answers, so the dashboard can draw its placeholders
    expect((await t.app.inject({ url: '/monitor/panels', headers: admin })).statusCode).toBe(200);
  });

  it('treats a datasource whose host is not allow-listed as not configured', async () => {
    const t2 = await buildTestApp({
      env: {
        ...monitorEnv('http://127.0.0.1:1'),
        MONITOR_URL: 'https://monitor.example.test',
        MONITOR_LOGS_URL: 'http://127.0.0.1:1',
      },
    });
    try {
      const a = (await t2.login('admin')).headers;
      const res = await t2.app.inject({
        method: 'POST',
        url: '/monitor/logs/batch',
        headers: a,
        payload: { queries: [q('x')] },
      });
      expect(res.statusCode).toBe(503);
    } finally {
      await t2.close();
    }
  });
});
