import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeItem, rssFeed, seedPipeline, startFeedServer } from '../helpers/pipeline-factories.js';
import type { HttpPeer } from '../peers/http-peer.js';
import { PrometheusProcess, freePort, prometheusAvailable, until } from './prometheus-process.js';

/**
 * Against Debian's real Prometheus (apt-get install prometheus; .ci/run installs it), run from its
 * own binary with a config and storage under a temporary directory, Basic auth on and a route prefix
 * (`--web.route-prefix=/prom`): the service's GET /metrics is scraped, and the monitoring proxy reads
 * it back through `MONITOR_METRICS_URL=http://127.0.0.1:<port>/prom`, explains a bad query in
 * Prometheus' words, fills in a missing step, and shows an outage and the recovery.
 */
const USER = 'prom';
const KEY = 'prom-test-key';
// bcrypt of KEY (Prometheus' web config stores only the hash)
const KEY_BCRYPT = '$2b$12$r1MN66M1gejD1IVXwesMvu1gqRFQmFK2RrtDMV6R5Ea17C7USQ7kG';

describe.runIf(prometheusAvailable())('against a real Prometheus (Basic auth, route prefix /prom)', () => {
  let dir: string;
  let prometheus: PrometheusProcess;
  let t: TestApp;
  let admin: { headers: Record<string, string> };
  let feeds: HttpPeer;
  let serviceUrl: string;

  const startPrometheus = () => prometheus.start();
  const stopPrometheus = () => prometheus.stop();

  const batch = async (queries: Record<string, unknown>[]) => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/monitor/metrics/batch',
      headers: admin.headers,
      payload: { queries },
    });
    expect(r.statusCode).toBe(200);
    return r.json<{ results: Record<string, any>[] }>().results; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prometheus-'));
    const promPort = await freePort();
    prometheus = new PrometheusProcess({
      dir,
      port: promPort,
      webConfig: true,
      routePrefix: '/prom',
      authorization: `Basic ${Buffer.from(`${USER}:${KEY}`).toString('base64')}`,
    });
    t = await buildTestApp({
      env: {
        METRICS_COLLECTOR: 'true',
        // the route prefix belongs in the store URL; no MONITOR_URL needed
        MONITOR_METRICS_URL: prometheus.url,
        MONITOR_METRICS_USER: USER,
        MONITOR_API_KEY: KEY,
        FETCH_ALLOWED_HOSTS: '127.0.0.1',
      },
    });
    serviceUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    admin = await t.login('admin');
    feeds = await startFeedServer({
      '/feed.xml': rssFeed(Array.from({ length: 5 }, () => makeItem())),
    });
    writeFileSync(join(dir, 'web.yml'), `basic_auth_users:\n  ${USER}: '${KEY_BCRYPT}'\n`);
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        'scrape_configs:',
        '  - job_name: article-intel',
        `    static_configs: [{ targets: ['${new URL(serviceUrl).host}'] }]`,
        '',
      ].join('\n'),
    );
    await startPrometheus();
  }, 120_000);

  afterAll(async () => {
    await stopPrometheus();
    await feeds?.stop();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves /metrics to loopback only, and Prometheus sees the pipeline counters after a scrape', async () => {
    const { sourceIds } = await seedPipeline(t.app, admin.headers, {
      sources: [{ name: 'feed', url: `${feeds.url}/feed.xml` }],
    });
    expect(sourceIds).toHaveLength(1);
    const run = await t.app.inject({ method: 'POST', url: '/admin/scraper/runs', headers: admin.headers });
    expect(run.statusCode).toBe(202);
    const runId = run.json<{ run_id: string }>().run_id;
    await until(
      async () => {
        const r = await t.app.inject({
          method: 'GET',
          url: `/admin/scraper/runs/${runId}`,
          headers: admin.headers,
        });
        return ['queued', 'running'].includes(r.json<{ status: string }>().status) ? undefined : true;
      },
      60_000,
      'the scraper run',
    );

    const text = await (await fetch(`${serviceUrl}/metrics`)).text();
    expect(text).toMatch(/^pipeline_articles_total\{.*stage="published".*\} 5/m);
    expect(text).toMatch(/^scraper_runs_total\{.*status="completed".*\} 1/m);
    const remote = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '192.0.2.10',
    });
    expect(remote.statusCode).toBe(403);

    // read back through the monitoring proxy; no step: the proxy picks one (~250 points)
    const [series] = await until(
      async () => {
        const r = await batch([{ id: 'published', query: 'pipeline_articles_total{stage="published"}' }]);
        const payload = r[0]!.data as { data?: { result?: unknown[] } } | undefined;
        return payload?.data?.result?.length ? r : undefined;
      },
      30_000,
      'Prometheus to have scraped the counters',
    );
    expect(series!.status).toBe('ok');
    const values = (series!.data as { data: { result: { values: [number, string][] }[] } }).data.result[0]!
      .values;
    expect(Number(values.at(-1)![1])).toBe(5);
  }, 120_000);

  it('shows Prometheus’ own reason for a PromQL mistake, apart from an outage', async () => {
    const now = Date.now() / 1000;
    const [typo, ok] = await batch([
      { id: 'typo', query: 'sum(rate(pipeline_articles_total[5m])', start: now - 600, end: now, step: 15 },
      { id: 'ok', query: 'up', start: now - 600, end: now, step: 15 },
    ]);
    expect(typo).toMatchObject({ id: 'typo', status: 'error', error: { code: 'bad_query' } });
    expect(typo!.error.message).toMatch(/unclosed left parenthesis|parse error/);
    expect(ok!.status).toBe('ok');

    const single = await t.app.inject({
      method: 'GET',
      url: `/monitor/metrics?query=${encodeURIComponent('up{')}&start=${now - 60}&end=${now}&step=15`,
      headers: admin.headers,
    });
    expect(single.statusCode).toBe(422);
    expect(single.json<{ error: { code: string } }>().error.code).toBe('bad_query');
  }, 60_000);

  it('says to check the route prefix when the store URL leaves it out, and refuses without the credentials', async () => {
    const ask = async (env: Record<string, string>) => {
      const other = await buildTestApp({ env });
      try {
        const headers = (await other.login('admin')).headers;
        const r = await other.app.inject({
          method: 'POST',
          url: '/monitor/metrics/batch',
          headers,
          payload: { queries: [{ id: 'up', query: 'up' }] },
        });
        return r.json<{ results: { status: string; error?: { code: string; message: string } }[] }>()
          .results[0]!;
      } finally {
        await other.close();
      }
    };
    const base = prometheus.url.replace(/\/prom$/, '');
    const noPrefix = await ask({
      MONITOR_METRICS_URL: base,
      MONITOR_METRICS_USER: USER,
      MONITOR_API_KEY: KEY,
    });
    expect(noPrefix.error).toEqual({
      code: 'upstream_error',
      message: expect.stringMatching(/HTTP 404: check the route prefix in the store URL/),
    });
    const noAuth = await ask({ MONITOR_METRICS_URL: prometheus.url });
    expect(noAuth.error).toEqual({
      code: 'upstream_error',
      message: expect.stringMatching(/asks for credentials \(HTTP 401\)/),
    });
  }, 60_000);

  it('marks the panels during an outage with the age of the last good data, and recovers', async () => {
    const question = [{ id: 'up', query: 'up' }];
    const before = await batch(question);
    expect(before[0]!.status).toBe('ok');

    await stopPrometheus();
    const during = await batch(question);
    expect(during[0]).toMatchObject({ status: 'error', error: { code: 'upstream_error' } });
    expect(Date.parse(String(during[0]!.last_fetched_at))).toBe(Date.parse(before[0]!.fetched_at));

    await startPrometheus();
    const after = await until(
      async () => {
        const r = await batch(question);
        return r[0]!.status === 'ok' ? r : undefined;
      },
      30_000,
      'the proxy to answer again',
    );
    expect(after[0]!.stale).toBe(false);
  }, 90_000);
});
