import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeItem, rssFeed, seedPipeline, startFeedServer } from '../helpers/pipeline-factories.js';
import type { HttpPeer } from '../peers/http-peer.js';
import { PrometheusProcess, freePort, prometheusAvailable, until } from './prometheus-process.js';

/**
 * README "Connecting Prometheus, Loki and Tempo" works as written: Debian's Prometheus runs with the
 * README's scrape job (only the target's port replaced) and the service with the README's env lines
 * for the metrics store (only the store's port replaced); after a scraper run, a Metrics-tab query of
 * the dashboard answers the pipeline's counters, filtered by the README's environment label. Both
 * blocks are read from README.md, so the README cannot drift from what is tested.
 */
const README = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md'), 'utf8');
const HEADING = '## Connecting Prometheus, Loki and Tempo';
const README_TARGET = '127.0.0.1:8000';
const README_STORE = '127.0.0.1:9090';
const METRICS_STORE_VARS = ['METRICS_COLLECTOR', 'METRICS_ALLOWED_NETWORKS', 'MONITOR_METRICS_URL'];

function readmeSection(): string {
  const start = README.indexOf(`\n${HEADING}\n`);
  expect(start, `README has "${HEADING}"`).toBeGreaterThan(0);
  const end = README.indexOf('\n## ', start + HEADING.length + 2);
  return README.slice(start, end < 0 ? undefined : end);
}

/** The first fenced block of a language in the section. */
function block(section: string, lang: string): string {
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section);
  expect(m, `a \`\`\`${lang} block in the README section`).not.toBeNull();
  return m![1]!;
}

/** KEY=value lines of a shell block, comments dropped. */
function envLines(sh: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of sh.split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(\S+)/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

describe.runIf(prometheusAvailable())('the README’s self-hosted Prometheus example, as written', () => {
  let dir: string;
  let prometheus: PrometheusProcess;
  let t: TestApp;
  let admin: Record<string, string>;
  let feeds: HttpPeer;
  let readmeEnv: Record<string, string>;

  beforeAll(async () => {
    const section = readmeSection();
    const env = envLines(block(section, 'sh'));
    for (const key of METRICS_STORE_VARS) expect(env, `README sets ${key}`).toHaveProperty(key);
    // no credentials in the self-hosted example: a store with only its URL works
    expect(env).not.toHaveProperty('MONITOR_METRICS_USER');
    expect(env).not.toHaveProperty('MONITOR_API_KEY');
    expect(env.MONITOR_METRICS_URL).toContain(README_STORE);

    const scrape = block(section, 'yaml');
    expect(scrape.split(README_TARGET)).toHaveLength(2);

    dir = mkdtempSync(join(tmpdir(), 'prometheus-readme-'));
    const port = await freePort();
    prometheus = new PrometheusProcess({ dir, port });
    readmeEnv = Object.fromEntries(
      METRICS_STORE_VARS.map((k) => [k, env[k]!.replace(README_STORE, `127.0.0.1:${port}`)]),
    );
    t = await buildTestApp({ env: { ...readmeEnv, FETCH_ALLOWED_HOSTS: '127.0.0.1' } });
    const serviceUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    // the README's file with two changes: the service's port, and a 1 s scrape for the README's
    // 15 s (increase() needs two scrapes of a new counter; at 15 s this file waited half a minute)
    expect(scrape).toContain('scrape_interval: 15s');
    writeFileSync(
      join(dir, 'prometheus.yml'),
      scrape
        .replace(README_TARGET, new URL(serviceUrl).host)
        .replace('scrape_interval: 15s', 'scrape_interval: 1s'),
    );
    admin = (await t.login('admin')).headers;
    feeds = await startFeedServer({ '/feed.xml': rssFeed(Array.from({ length: 4 }, () => makeItem())) });
    await prometheus.start();
  }, 120_000);

  afterAll(async () => {
    await prometheus?.stop();
    await feeds?.stop();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers the Metrics tab’s queries with the pipeline counters Prometheus scraped from /metrics', async () => {
    await seedPipeline(t.app, admin, { sources: [{ name: 'feed', url: `${feeds.url}/feed.xml` }] });
    const run = await t.app.inject({ method: 'POST', url: '/admin/scraper/runs', headers: admin });
    const runId = run.json<{ run_id: string }>().run_id;
    await until(
      async () => {
        const r = await t.app.inject({ url: `/admin/scraper/runs/${runId}`, headers: admin });
        return ['queued', 'running'].includes(r.json<{ status: string }>().status) ? undefined : true;
      },
      60_000,
      'the scraper run',
    );

    type Catalog = { panels: { id: string; query: Record<string, unknown> }[] };
    const panel = async (env: string, id: string) =>
      (await t.app.inject({ url: `/monitor/panels?range=6h&env=${env}`, headers: admin }))
        .json<Catalog>()
        .panels.find((p) => p.id === id)!.query;
    const ask = async (query: Record<string, unknown>) => {
      const r = await t.app.inject({
        method: 'POST',
        url: '/monitor/metrics/batch',
        headers: admin,
        payload: { queries: [query] },
      });
      expect(r.statusCode).toBe(200);
      return r.json<{ results: { status: string; data?: { data: { result: unknown[] } } }[] }>().results[0]!;
    };

    // the README's label is deployment_environment: local, so the Environment filter "local" finds it;
    // increase() needs two scrapes of the new counter
    const local = await until(
      async () => {
        const r = await ask(await panel('local', 'met-articles'));
        const series = (r.data?.data.result ?? []) as { metric: Record<string, string> }[];
        return series.some((s) => s.metric.stage === 'published') ? series : undefined;
      },
      75_000,
      `Prometheus to have scraped the counters twice (${prometheus.log.slice(-500)})`,
    );
    expect(local.map((s) => s.metric.stage)).toContain('published');
    const runs = await ask(await panel('local', 'met-runs'));
    expect(runs.status).toBe('ok');
    expect(JSON.stringify(runs.data)).toContain('"status":"completed"');

    // another environment: the same query answers, with nothing in it
    const production = await ask(await panel('production', 'met-articles'));
    expect(production.status).toBe('ok');
    expect(production.data!.data.result).toEqual([]);

    // /metrics itself answers to loopback (the README's METRICS_ALLOWED_NETWORKS) and no one else
    expect(readmeEnv.METRICS_ALLOWED_NETWORKS).toContain('127.0.0.0/8');
    const outside = await t.app.inject({ url: '/metrics', remoteAddress: '192.0.2.10' });
    expect(outside.statusCode).toBe(403);
  }, 150_000);
});
