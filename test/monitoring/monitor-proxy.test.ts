import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import {
  LOKI_PARSE_ERROR,
  MATRIX,
  MonitorStorePeer,
  PROM_PARSE_ERROR,
  SEARCH,
  STREAMS,
  TEMPO_PARSE_ERROR,
  TRACE_BATCHES,
  TRACE_ID,
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
    expect((await get(`/monitor/traces/${TRACE_ID.toUpperCase()}`)).json()).toEqual(TRACE_BATCHES);
    store.traceBody = { trace: { resourceSpans: TRACE_BATCHES.batches } }; // Tempo's v2 form
    expect((await get(`/monitor/traces/${TRACE_ID}`)).json()).toEqual(TRACE_BATCHES);
    store.traceBody = TRACE_BATCHES;
    // a trace the store does not hold: Tempo's 404 becomes trace_not_found, not an outage
    const missing = await get('/monitor/traces/0123456789abcdef0123456789abcdef');
    expect([missing.statusCode, missing.json().error.code]).toEqual([404, 'trace_not_found']);
  });

  it('shows each store’s own reason for a query it refuses (Prometheus JSON, Loki and Tempo text) as bad_query', async () => {
    store.modes.set('*', 'bad-query');
    try {
      const prom = await post('/monitor/metrics/batch', { queries: [{ id: 'p', query: 'sum(up' }] });
      const loki = await post('/monitor/log-metrics/batch', { queries: [q('l')] });
      const logs = await post('/monitor/logs/batch', { queries: [{ id: 'g', query: '{a="b"} | bad' }] });
      const tempo = await post('/monitor/traces/batch', { queries: [{ id: 't', q: '{ .a = b }' }] });
      expect(prom.json().results[0].error).toEqual({
        code: 'bad_query',
        message: `the store refused the query: bad_data: ${PROM_PARSE_ERROR.error}`,
      });
      for (const r of [loki, logs])
        expect(r.json().results[0].error).toEqual({
          code: 'bad_query',
          message: `the store refused the query: ${LOKI_PARSE_ERROR}`,
        });
      expect(tempo.json().results[0].error).toEqual({
        code: 'bad_query',
        message: `the store refused the query: ${TEMPO_PARSE_ERROR}`,
      });
      const single = await get(`/monitor/logs?query=${encodeURIComponent('{a="b"} | bad')}&start=1&end=2`);
      expect([single.statusCode, single.json().error.code]).toEqual([422, 'bad_query']);
      store.modes.set('*', 'unauthorized');
      const denied = await post('/monitor/metrics/batch', { queries: [{ id: 'p', query: 'up' }] });
      expect(denied.json().results[0].error.code).toBe('upstream_error');
      expect(denied.json().results[0].error.message).toMatch(/refused the credentials \(HTTP 401\)/);
    } finally {
      store.modes.clear();
    }
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
    expect([...tabs].sort()).toEqual(['logs', 'metrics', 'operations', 'traces']);
    // README, "Monitoring proxy and dashboard": the Operations, Logs and Traces tabs never read the metrics store; the
    // Metrics tab reads only it, in unix seconds
    for (const p of a.panels as { tab: string; datasource: string; query: { start: string } }[]) {
      expect(p.datasource === 'metrics').toBe(p.tab === 'metrics');
      if (p.tab === 'metrics') expect(p.query.start).toMatch(/^\d{10}$/);
    }
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
    // the catalog still answers, so the dashboard can draw its placeholders, and says no store is set
    const catalog = await t.app.inject({ url: '/monitor/panels', headers: admin });
    expect(catalog.statusCode).toBe(200);
    expect(catalog.json().stores).toEqual({ logs: false, traces: false, metrics: false });
  });

  it('treats a store whose user is set without MONITOR_API_KEY as not configured', async () => {
    const t2 = await buildTestApp({
      env: { MONITOR_LOGS_URL: 'http://127.0.0.1:1', MONITOR_LOGS_USER: 'logs-user' },
    });
    try {
      const a = (await t2.login('admin')).headers;
      const res = await t2.app.inject({
        method: 'POST',
        url: '/monitor/logs/batch',
        headers: a,
        payload: { queries: [q('x')] },
      });
      expect([res.statusCode, res.json().error.code]).toEqual([503, 'not_configured']);
      const catalog = await t2.app.inject({ url: '/monitor/panels', headers: a });
      expect(catalog.json().stores).toEqual({ logs: false, traces: false, metrics: false });
    } finally {
      await t2.close();
    }
  });
});

describe('stores without auth, on their own hosts, behind route prefixes', () => {
  const store = new MonitorStorePeer();
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    await store.start();
    // no MONITOR_URL, no MONITOR_ALLOWED_HOSTS: each store URL's own host is allowed because the
    // admin wrote it; the metrics store has no user (no auth), the log store has Basic auth, the
    // trace store has a user but the key is shared: MONITOR_API_KEY goes only where a user is set
    t = await buildTestApp({
      env: {
        MONITOR_METRICS_URL: `${store.url}/prom/`,
        MONITOR_LOGS_URL: `${store.url}/logs`,
        MONITOR_LOGS_USER: 'logs-user',
        MONITOR_TRACES_URL: `${store.url.replace('127.0.0.1', 'localhost')}/tempo`,
        MONITOR_API_KEY: 'secret-api-key-123',
        MONITOR_TIMEOUT_MS: '1500',
      },
    });
    admin = (await t.login('admin')).headers;
  });
  afterAll(async () => {
    await t.close();
    await store.stop();
  });

  it('sends no Authorization header to a store without a user, Basic auth to a store with one', async () => {
    const metrics = await t.app.inject({
      method: 'POST',
      url: '/monitor/metrics/batch',
      headers: admin,
      payload: { queries: [{ id: 'up', query: 'up' }] },
    });
    expect(metrics.json().results[0]).toMatchObject({ status: 'ok', data: MATRIX });
    const promReq = store.requests.at(-1)!;
    expect(promReq.path).toBe('/prom/api/v1/query_range');
    expect(promReq.headers.authorization).toBeUndefined();
    // no step, start or end given: about 250 points over the last hour
    expect(Number(promReq.query.get('step'))).toBe(15);

    const logs = await t.app.inject({
      method: 'POST',
      url: '/monitor/logs/batch',
      headers: admin,
      payload: { queries: [{ id: 'l', query: '{service_name="article-intel"}' }] },
    });
    expect(logs.json().results[0]).toMatchObject({ status: 'ok', data: STREAMS });
    expect(store.requests.at(-1)).toMatchObject({
      path: '/logs/loki/api/v1/query_range',
      headers: { authorization: basic('logs-user') },
    });

    const traces = await t.app.inject({
      method: 'POST',
      url: '/monitor/traces/batch',
      headers: admin,
      payload: { queries: [{ id: 't', q: '{ name = "scraper.run" }' }] },
    });
    expect(traces.json().results[0]).toMatchObject({ status: 'ok', data: SEARCH });
    const tempoReq = store.requests.at(-1)!;
    expect(tempoReq.path).toBe('/tempo/api/search');
    expect(tempoReq.headers.host).toMatch(/^localhost:/);
    expect(tempoReq.headers.authorization).toBeUndefined();
  });

  it('hints at the route prefix when a store answers 404 (a prefix left out of the store URL)', async () => {
    store.requirePrefix = '/prom'; // as Prometheus run with --web.route-prefix=/prom
    const t2 = await buildTestApp({ env: { MONITOR_METRICS_URL: store.url } });
    try {
      const a = (await t2.login('admin')).headers;
      const r = await t2.app.inject({
        method: 'POST',
        url: '/monitor/metrics/batch',
        headers: a,
        payload: { queries: [{ id: 'up', query: 'up' }] },
      });
      expect(r.json().results[0].error).toEqual({
        code: 'upstream_error',
        message: expect.stringMatching(/HTTP 404: check the route prefix in the store URL/),
      });
      // configured, even though it answers 404: the catalog names exactly the stores that are set
      const catalog = await t2.app.inject({ url: '/monitor/panels', headers: a });
      expect(catalog.json().stores).toEqual({ logs: false, traces: false, metrics: true });
    } finally {
      store.requirePrefix = '';
      await t2.close();
    }
  });
});
