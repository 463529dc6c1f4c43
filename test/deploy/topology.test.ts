import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAiPeer, type ChatCall } from '../peers/openai-peer.js';
import type { HttpPeer } from '../peers/http-peer.js';
import { makeItem, modelReply, rssFeed, startFeedServer } from '../helpers/pipeline-factories.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';
import {
  compileDist,
  eventually,
  startServiceProcess,
  type ServiceProcess,
} from '../helpers/service-process.js';

/**
 * The production topology of deploy/compose.yaml as processes: PostgreSQL and Redis, two `api`,
 * one `web` and two `worker` processes from dist/. A scrape, views on both api processes, a flush
 * and a weekly report are driven through the web role, and the totals must be exact.
 */
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const ADMIN = { email: 'ops@example.test', password: 'topology-admin-passphrase-42' };
const ARTICLES = 24;

/** Monday 00:00 UTC of the week two weeks before now: a full week in the past. */
function pastWeek(): { start: Date; iso: string } {
  const now = new Date();
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7) - 14);
  return { start: monday, iso: monday.toISOString().slice(0, 10) };
}

/** The model for analysis, translation and the weekly report, told apart by the prompt. */
const model = (call: ChatCall) =>
  (call.messages[0]?.content ?? '').includes('summary_text')
    ? JSON.stringify({ title: 'Weekly digest', summary_text: 'Sparse attention led the week [1].' })
    : modelReply(call);

describe.runIf(databaseUrl && redisUrl)('production topology as processes', () => {
  const children = new Set<ChildProcessWithoutNullStreams>();
  const week = pastWeek();
  let scratch: { url: string; drop(): Promise<void> };
  let redisDbUrl: string;
  let feeds: HttpPeer;
  let llm: OpenAiPeer;
  let dataDir: string;
  let apis: { svc: ServiceProcess; url: string }[] = [];
  let workers: ServiceProcess[] = [];
  let web: { svc: ServiceProcess; url: string };
  let cookie = '';

  const items = Array.from({ length: ARTICLES }, (_, i) =>
    makeItem({
      title: `Topology article ${i}: sparse attention for protein folding`,
      published: new Date(week.start.getTime() + (i % 6) * 86_400_000 + 3_600_000).toUTCString(),
    }),
  );

  const viaWeb = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${web.url}${path}`, {
      method,
      headers: {
        cookie,
        origin: web.url,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };

  beforeAll(async () => {
    scratch = await createScratchDatabase(databaseUrl!, 'topo');
    // a Redis database of its own, emptied first: the processes use keys without a prefix
    const redis = new URL(redisUrl!);
    redis.pathname = '/13';
    redisDbUrl = redis.toString();
    const { Redis } = await import('ioredis');
    const client = new Redis(redisDbUrl);
    await client.flushdb();
    client.disconnect();

    feeds = await startFeedServer({ '/feed.xml': rssFeed(items) });
    llm = await new OpenAiPeer(model).start();
    dataDir = mkdtempSync(join(tmpdir(), 'topology-'));
    await compileDist();

    const env = {
      DATABASE_URL: scratch.url,
      REDIS_URL: redisDbUrl,
      DATA_DIR: dataDir,
      AUTH_SECRET: 'topology-secret-topology-secret-topology-secret',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      API_HOST: '127.0.0.1',
      HOST: '127.0.0.1',
      VIEW_COUNT_FLUSH_INTERVAL: '86400',
      // no quick flush of the articles just viewed: on a loaded machine it took part of the views
      // before the flush this test counts them with
      VIEW_COUNT_RECENT_FLUSH_SECONDS: '0',
      FETCH_ALLOWED_HOSTS: '127.0.0.1',
      // per-article stage events are debug lines: they are the processing log counted below
      LOG_LEVEL: 'debug',
    };
    const start = (role: string, extra: Record<string, string> = {}) =>
      startServiceProcess(['dist/main.js', role], { ...env, API_PORT: '0', PORT: '0', ...extra }, children);

    // all five at once on a new database: the migrations take turns
    const apiProcs = [start('api'), start('api')];
    workers = [start('worker'), start('worker')];
    apis = await Promise.all(
      apiProcs.map(async (svc) => ({ svc, url: String((await svc.waitFor('api.listening', 60_000)).url) })),
    );
    await Promise.all(workers.map((w) => w.waitFor('process.started', 60_000)));
    const webSvc = start('web', { API_URL: apis[0]!.url });
    web = { svc: webSvc, url: String((await webSvc.waitFor('web.listening', 180_000)).url) };

    const session = await fetch(`${web.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: web.url },
      body: JSON.stringify(ADMIN),
    });
    expect(session.status).toBe(200);
    cookie = (session.headers.get('set-cookie') ?? '').split(';')[0]!;
  }, 300_000);

  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await Promise.all([feeds?.stop(), llm?.stop()]);
    await scratch?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('scrapes, counts views on both api processes, flushes and reports with exact totals', async () => {
    // catalog through the web role
    const topic = await viaWeb('POST', '/api/proxy/admin/topics', { name: 'Topology' });
    expect(topic.status).toBe(201);
    const topicId = String(topic.body.id);
    const source = await viaWeb('POST', '/api/proxy/admin/sources', {
      topic_id: topicId,
      name: 'Topology feed',
      kind: 'rss',
      url: `${feeds.url}/feed.xml`,
    });
    expect(source.status).toBe(201);
    const provider = await viaWeb('POST', '/api/proxy/admin/providers', {
      name: 'peer',
      type: 'multimodal',
      base_url: llm.baseUrl,
      model: 'm',
      image_model: 'img',
      is_active: true,
    });
    expect(provider.status).toBe(201);

    // one scraper run, every article processed exactly once across all processes
    const run = await viaWeb('POST', '/api/proxy/admin/scraper/runs');
    expect(run.status).toBe(202);
    const runId = String(run.body.run_id);
    const finished = await eventually(
      async () => {
        const r = await viaWeb('GET', `/api/proxy/admin/scraper/runs/${runId}`);
        return ['queued', 'running'].includes(String(r.body.status)) ? undefined : r.body;
      },
      120_000,
      'the scraper run to finish',
    );
    expect(finished.status).toBe('completed');

    const db = new pg.Client({ connectionString: scratch.url });
    await db.connect();
    try {
      const states = await eventually(
        async () => {
          const r = await db.query<{ id: string; processing_status: string }>(
            'select id, processing_status from articles',
          );
          const done = r.rows.every((row) => ['completed', 'failed'].includes(row.processing_status));
          return r.rows.length === ARTICLES && done ? r.rows : undefined;
        },
        120_000,
        'every article to reach its final state',
      );
      expect(states.map((s) => s.processing_status)).toEqual(Array(ARTICLES).fill('completed'));
      const ids = states.map((s) => s.id);

      const processed = [...apis.map((a) => a.svc), ...workers, web.svc]
        .flatMap((p) => p.lines)
        .filter((l) => l.event === 'article.processing.completed')
        .map((l) => String(l.article_id));
      expect(processed.sort()).toEqual([...ids].sort());

      // views: the same client on both api processes counts once; distinct clients add up
      const expected = new Map<string, number>();
      let sent = 0;
      for (const [i, id] of ids.entries()) {
        const clients = Array.from({ length: 1 + (i % 4) }, (_, k) => `203.0.113.${k + 1}`);
        for (const ip of clients)
          for (const api of apis) {
            const r = await fetch(`${api.url}/articles/${id}/view`, {
              method: 'POST',
              headers: { 'x-forwarded-for': ip },
            });
            expect(r.status).toBe(204);
            sent++;
          }
        expected.set(id, clients.length);
      }
      expect(sent).toBeGreaterThan(ARTICLES * 2);
      const flush = await viaWeb('POST', '/api/proxy/admin/articles/flush-view-counts');
      expect(flush.status).toBe(200);
      const total = [...expected.values()].reduce((a, b) => a + b, 0);
      expect(flush.body).toEqual({ articles: ARTICLES, views: total });
      for (const [id, count] of expected) {
        const a = await viaWeb('GET', `/api/proxy/articles/${id}`);
        expect(a.body.view_count, id).toBe(count);
      }
      const stored = await db.query<{ n: string }>('select sum(view_count) as n from article_view_counts');
      expect(Number(stored.rows[0]!.n)).toBe(total);
    } finally {
      await db.end();
    }

    // the weekly report of that week, through the web role
    const job = await viaWeb('POST', '/api/proxy/admin/jobs/weekly-reports', {
      topic_id: topicId,
      week_start: week.iso,
    });
    expect([200, 202]).toContain(job.status);
    if (job.status === 202) {
      await eventually(
        async () => {
          const r = await viaWeb('GET', `/api/proxy/admin/runs/${String(job.body.run_id)}`);
          return ['queued', 'running'].includes(String(r.body.status)) ? undefined : r.body;
        },
        120_000,
        'the weekly report run to finish',
      );
    }
    const report = await viaWeb(
      'GET',
      `/api/proxy/weekly-reports/by-week?topic_id=${topicId}&week_start=${week.iso}`,
    );
    expect(report.status).toBe(200);
    expect(String(report.body.summary_text)).toContain('[1]');
    expect((report.body.sources as unknown[]).length).toBeGreaterThan(0);
    expect(report.body.status).toBe('completed');
  }, 420_000);

  it('every process stops cleanly on SIGTERM', async () => {
    const all = [...apis.map((a) => a.svc), ...workers, web.svc];
    for (const p of all) p.child.kill('SIGTERM');
    expect(await Promise.all(all.map((p) => p.exited))).toEqual(all.map(() => 0));
  }, 90_000);
});
