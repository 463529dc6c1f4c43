import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import autocannon from 'autocannon';
import pg from 'pg';
import { Redis } from 'ioredis';
import { MonitorStorePeer, monitorEnv } from '../peers/monitor-peers.js';
import { OtlpReceiver } from '../peers/otlp-receiver.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import type { HttpPeer } from '../peers/http-peer.js';
import { makeItem, modelReply, rssFeed, startFeedServer } from '../helpers/pipeline-factories.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';
import { compileDist } from '../helpers/service-process.js';

/**
 * Soak: the real service in its production shape (an api process and a worker process sharing
 * PostgreSQL and Redis, view flushes every second, traces exported to an OTLP receiver, the
 * monitoring proxy in front of Prometheus/Loki/Tempo-speaking peers) under mixed traffic from
 * autocannon on loopback — browsing, sorting, views, favorites, dashboard batches — with a scraper
 * run in the middle, then SIGTERM while the traffic still flows. In-flight requests finish, the last
 * views and spans are flushed, and the totals are exact: every view the api answered 204 (each from
 * a new address) is counted exactly once, and every published article has its article.pipeline span.
 */
const dbUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
/**
 * 20 s of traffic in `npm test`: long enough for the scraper run to finish under it and for views to
 * be flushed many times over (every second); `SOAK_SECONDS=300` (the README) soaks for longer
 */
const SECONDS = Number(process.env.SOAK_SECONDS ?? 20);
const ARTICLES = 50;
/** items of the feed the scraper run reads in the middle of the traffic */
const FEED_ITEMS = 40;

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe.runIf(dbUrl && redisUrl)('soak and graceful shutdown', () => {
  const children: ChildProcess[] = [];
  const prefix = `soak:${randomBytes(4).toString('hex')}:`;
  let url: URL;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  const store = new MonitorStorePeer();
  const receiver = new OtlpReceiver();
  const llm = new OpenAiPeer((call) => modelReply(call));
  let feeds: HttpPeer;

  beforeAll(async () => {
    await Promise.all([store.start(), receiver.start(), llm.start(), compileDist()]);
    feeds = await startFeedServer({
      '/soak.xml': rssFeed(Array.from({ length: FEED_ITEMS }, () => makeItem())),
    });
    scratch = await createScratchDatabase(dbUrl!, 'soak');
    url = new URL(scratch.url);
  }, 300_000);

  afterAll(async () => {
    // a failed run must not leave the service running
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await Promise.all([store.stop(), receiver.stop(), llm.stop(), feeds.stop()]);
    await scratch?.drop();
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it(
    'keeps exact view and span totals through mixed traffic, a scraper run and a SIGTERM under load',
    async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const env = {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: url.toString(),
        REDIS_URL: redisUrl!,
        REDIS_KEY_PREFIX: prefix,
        API_PORT: String(port),
        API_HOST: '127.0.0.1',
        VIEW_COUNT_FLUSH_INTERVAL: '1',
        ADMIN_EMAIL: 'soak-admin@example.test',
        ADMIN_PASSWORD: 'soak-admin-password',
        RATE_LIMIT_VIEWS_PER_MINUTE: '0',
        RATE_LIMIT_LOGIN_PER_MINUTE: '0',
        AUTH_SECRET: 'soak-secret-soak-secret-soak-secret-0123',
        SCHEDULER_ENABLED: 'false',
        ...monitorEnv(store.url),
        MONITOR_OTLP_USER: 'soak-ingest',
        MONITOR_OTLP_ENDPOINT: receiver.url,
      };
      let out = '';
      const start = (role: string) => {
        // as `npm start` runs it: from dist/ (compiled once per test run)
        const child = spawn(process.execPath, ['dist/main.js', role], {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        children.push(child);
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        return { child, exited: new Promise<number | null>((resolve) => child.on('exit', resolve)) };
      };
      const api = start('api');
      expect(
        await waitUntil(
          () =>
            fetch(`${base}/ready`).then(
              (r) => r.ok,
              () => false,
            ),
          60_000,
        ),
        out,
      ).toBe(true);
      const worker = start('worker');

      // a topic and articles straight into PostgreSQL
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      db.on('error', () => {});
      const topic = randomUUID();
      await db.query(`insert into topics (id, name, slug) values ($1, 'Soak', 'soak')`, [topic]);
      const articleIds = Array.from({ length: ARTICLES }, () => randomUUID());
      // stored as processed: an unfinished article would get a pipeline job (the start-up sweep)
      for (const [i, id] of articleIds.entries()) {
        await db.query(
          `insert into articles (id, topic_id, source, url, canonical_url, title, normalized_title, published_at, processing_status)
         values ($1, $2, 'soak-feed', $3, $3, $4, $4, now() - ($5 || ' hours')::interval, 'completed')`,
          [id, topic, `https://soak.test/${i}`, `Article ${i}`, String(i)],
        );
      }
      const login = await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'soak-admin@example.test', password: 'soak-admin-password' }),
      });
      const auth = {
        authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
      };
      const adminPost = async (path: string, body: object) => {
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(res.status, `${path}: ${await res.clone().text()}`).toBeLessThan(300);
        return (await res.json()) as Record<string, unknown>;
      };
      await adminPost('/admin/sources', {
        topic_id: topic,
        name: 'Soak feed',
        kind: 'rss',
        url: `${feeds.url}/soak.xml`,
      });
      await adminPost('/admin/providers', {
        name: 'soak-llm',
        type: 'text',
        base_url: llm.baseUrl,
        model: 'm',
        is_active: true,
      });
      // the dashboard's log-aggregate panels: one batch of 12 range queries
      const dashboardBatch = JSON.stringify({
        queries: Array.from({ length: 12 }, (_, i) => ({
          id: `panel-${i}`,
          query: `sum(count_over_time({service_name="article-intel"} | json | event="e${i}" [5m]))`,
          start: String(Math.floor(Date.now() / 1000) - 3600),
          end: String(Math.floor(Date.now() / 1000)),
          step: '60',
        })),
      });

      let seq = 0;
      let viewsAccepted = 0;
      const statuses = new Map<number, number>();
      const traffic = autocannon(
        {
          url: base,
          connections: 16,
          duration: SECONDS,
          requests: [
            { method: 'GET', path: `/articles?topic_id=${topic}&sort=view_count&order=desc&limit=20` },
            {
              method: 'POST',
              setupRequest: (req) => {
                const n = seq++;
                // a new address per view: every accepted view must be counted exactly once
                return {
                  ...req,
                  path: `/articles/${articleIds[n % ARTICLES]}/view`,
                  headers: { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
                };
              },
              onResponse: (status) => {
                if (status === 204) viewsAccepted++;
              },
            },
            { method: 'GET', path: `/articles?sort=published_at&order=asc&q=Article&limit=10` },
            {
              method: 'POST',
              setupRequest: (req) => ({
                ...req,
                path: `/user/favorites/${articleIds[seq % ARTICLES]}`,
                headers: auth,
              }),
            },
            { method: 'GET', path: '/user/favorites', headers: auth },
            {
              method: 'POST',
              path: '/monitor/log-metrics/batch',
              headers: { ...auth, 'content-type': 'application/json' },
              body: dashboardBatch,
            },
          ],
        },
        // the callback form returns the running instance (events, stop) rather than a promise
        () => {},
      );
      traffic.on('response', (_client: unknown, status: number) =>
        statuses.set(status, (statuses.get(status) ?? 0) + 1),
      );

      // a scraper run in the api process while the traffic flows; the SIGTERM waits for its end
      const sigtermAt = Date.now() + Math.max(5, SECONDS - 5) * 1000;
      const run = await adminPost('/admin/scraper/runs', {});
      let finished: { status: string; counts: Record<string, number> } | undefined;
      await waitUntil(async () => {
        const r = await fetch(`${base}/admin/scraper/runs/${String(run.run_id)}`, { headers: auth });
        // a 503 ("try again shortly": no pool connection free in time on a loaded machine) is asked again
        if (r.status === 503) return false;
        finished = (await r.json()) as typeof finished;
        return finished!.status !== 'running';
      }, 120_000);
      expect(finished, out).toMatchObject({ status: 'completed', counts: { published: FEED_ITEMS } });

      // SIGTERM the api while the traffic still flows
      await new Promise((r) => setTimeout(r, Math.max(0, sigtermAt - Date.now())));
      api.child.kill('SIGTERM');
      expect(await api.exited, out).toBe(0);
      traffic.stop();
      // the worker's last flush on SIGTERM takes what was counted since its previous flush
      worker.child.kill('SIGTERM');
      expect(await worker.exited, out).toBe(0);

      // a closing server answers requests that arrive after SIGTERM with 503 (Connection: close);
      // any other 5xx is a failure
      const failures = [...statuses].filter(([s]) => s >= 500 && s !== 503);
      expect(failures, JSON.stringify([...statuses])).toEqual([]);
      // the traffic really ran (how much depends on the machine; exactness is what is checked)
      expect(viewsAccepted).toBeGreaterThan(100);

      const { rows } = await db.query<{ total: string }>(
        `select coalesce(sum(view_count), 0) as total from article_view_counts`,
      );
      await db.end();
      expect(Number(rows[0]!.total)).toBe(viewsAccepted);
      const redis = new Redis(redisUrl!);
      const leftovers = await redis.keys(`${prefix}view:*`);
      await redis.quit();
      expect(leftovers).toEqual([]);

      // the spans of the run were exported before the api exited: one scraper.run, one
      // article.pipeline per published article, all in the run's trace
      const roots = receiver.spans.filter((s) => s.name === 'scraper.run');
      expect(roots.map((s) => s.attributes['run.id'])).toEqual([run.run_id]);
      const pipelines = receiver.spans.filter((s) => s.name === 'article.pipeline');
      expect(pipelines).toHaveLength(FEED_ITEMS);
      expect(new Set(pipelines.map((s) => s.traceId))).toEqual(new Set([roots[0]!.traceId]));
      // the dashboard batches went through the proxy to the store
      expect(store.requests.length).toBeGreaterThan(12);
      console.log(
        `soak: ${viewsAccepted} views accepted and stored exactly; ${pipelines.length} article.pipeline spans for ${FEED_ITEMS} published articles; ${store.requests.length} upstream monitoring queries; statuses ${JSON.stringify([...statuses])}`,
      );
    },
    (SECONDS + 180) * 1000,
  );
});
