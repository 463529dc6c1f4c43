import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { HttpPeer } from '../peers/http-peer.js';
import { jsonFeed, makeItem, seedPipeline } from '../helpers/pipeline-factories.js';
import { insertArticle, insertProvider, insertTopic } from '../helpers/report-factories.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import { startAndWait, waitForRun, type RunBody } from '../helpers/runs.js';
import { scraperRuns } from '../../src/infrastructure/db/schema/index.js';

describe.each(dbKinds())('runs as records (%s)', (db) => {
  let t: TestApp;
  let feeds: HttpPeer;
  let admin: { headers: Record<string, string> };
  let sourceIds: string[];

  beforeAll(async () => {
    feeds = await new HttpPeer((req, res) => {
      if (req.path === '/broken.json') return void res.writeHead(503).end('down for maintenance');
      res
        .writeHead(200, { 'content-type': 'application/feed+json' })
        .end(jsonFeed([makeItem(), makeItem(), makeItem()]));
    }).start();
    t = await buildTestApp({ db });
    admin = await t.login('admin');
    ({ sourceIds } = await seedPipeline(t.app, admin.headers, {
      sources: [
        { name: 'Good news', url: `${feeds.url}/news.json` },
        { name: 'Broken feed', url: `${feeds.url}/broken.json` },
      ],
    }));
  });
  afterAll(async () => {
    await t.close();
    await feeds.stop();
  });

  const get = (url: string, headers = admin.headers) => t.app.inject({ url, headers });

  it('records a scrape as a run: progress over its articles, the failed source by id and why', async () => {
    const run = await startAndWait(t.app, admin.headers, '/admin/scraper/runs');
    expect(run).toMatchObject({
      kind: 'scrape',
      status: 'completed_with_errors',
      trigger: 'admin',
      error: null,
      error_count: 1,
      progress: { done: 3, total: 3 },
    });
    expect(run.summary).toMatchObject({ sources: 2, sources_failed: 1 });
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]!.source_id).toBe(sourceIds[1]);
    expect(run.errors[0]!.message).toMatch(/503/);
    expect(Date.parse(run.finished_at!)).toBeGreaterThanOrEqual(Date.parse(run.started_at));
    // the compatibility endpoint keeps its shape and its three statuses
    const legacy = await get(`/admin/scraper/runs/${run.id}`);
    expect(legacy.json()).toEqual({
      id: run.id,
      status: 'completed',
      started_at: run.started_at,
      finished_at: run.finished_at,
      counts: run.summary,
    });
  });

  it('answers 202 for weekly reports, refuses at once what cannot run, and lists runs by kind and status', async () => {
    const refused = await t.app.inject({
      method: 'POST',
      url: '/admin/jobs/weekly-reports',
      headers: admin.headers,
      payload: { topic_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('topic_not_found');
    expect((await get('/admin/runs?kind=reports')).json()).toMatchObject({ items: [], total: 0 });

    await insertProvider(t.container.database.db, { baseUrl: 'http://127.0.0.1:9', type: 'multimodal' });
    const reports = await startAndWait(t.app, admin.headers, '/admin/jobs/weekly-reports', {
      week_start: '2020-01-06',
    });
    // no topic has articles in that week: nothing to write, nothing failed
    expect(reports).toMatchObject({
      kind: 'reports',
      status: 'completed',
      summary: { week_start: '2020-01-06', topics: 0, created: 0, failed: 0 },
      errors: [],
    });

    const all = (await get('/admin/runs')).json() as { items: RunBody[]; total: number };
    expect(all.total).toBe(2);
    expect(all.items.map((r) => r.kind)).toEqual(['reports', 'scrape']);
    expect(all.items[0]).not.toHaveProperty('errors');
    const scrapes = (await get('/admin/runs?kind=scrape&status=completed_with_errors')).json();
    expect(scrapes).toMatchObject({ total: 1, limit: 20, offset: 0 });
    expect((await get('/admin/runs?limit=1&offset=1')).json().items[0].kind).toBe('scrape');
    expect((await get('/admin/runs?status=done')).statusCode).toBe(422);
    expect((await get('/admin/runs?kind=backup')).statusCode).toBe(422);
    expect((await get('/admin/runs/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await get('/admin/runs/not-a-uuid')).statusCode).toBe(422);
    const user = await t.login('user');
    expect((await get('/admin/runs', user.headers)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/admin/runs' })).statusCode).toBe(401);
  });

  it('records the topic whose weekly report failed, and the reason', async () => {
    // a model that never answers with the report's JSON: the topic fails after one retry
    const llm = await new OpenAiPeer(() => 'no JSON here').start();
    try {
      const dbh = t.container.database.db;
      await insertProvider(dbh, { baseUrl: llm.baseUrl, type: 'multimodal' });
      const topic = await insertTopic(dbh, 'Failing topic');
      await insertArticle(dbh, topic.id, { publishedAt: new Date('2026-10-07T10:00:00Z') });
      const run = await startAndWait(t.app, admin.headers, '/admin/jobs/weekly-reports', {
        topic_id: topic.id,
        week_start: '2026-10-05',
      });
      expect(run).toMatchObject({
        kind: 'reports',
        status: 'completed_with_errors',
        progress: { done: 1, total: 1 },
        summary: { week_start: '2026-10-05', topics: 1, created: 0, failed: 1 },
        error_count: 1,
      });
      expect(run.errors).toHaveLength(1);
      expect(run.errors[0]!.topic_id).toBe(topic.id);
      expect(run.errors[0]!.message.length).toBeGreaterThan(0);
      expect(llm.chatCalls.length).toBeGreaterThan(0);
    } finally {
      await llm.stop();
    }
  });

  it('closes as interrupted at start the runs a dead process left open', async () => {
    const dbh = t.container.database.db;
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
    const [dead] = await dbh
      .insert(scraperRuns)
      .values({
        kind: 'metrics',
        trigger: 'cron',
        correlationId: 'c',
        owner: 'gone:1',
        heartbeatAt: minutesAgo(30),
      })
      .returning();
    const [fresh] = await dbh
      .insert(scraperRuns)
      .values({
        kind: 'scrape',
        status: 'queued',
        trigger: 'cli',
        correlationId: 'c',
        heartbeatAt: new Date(),
      })
      .returning();
    // a second process starting on the same database
    const next = await buildTestApp({ database: t.container.database });
    try {
      const deadRun = await waitForRun(next.app, admin.headers, dead!.id);
      expect(deadRun).toMatchObject({ status: 'interrupted', trigger: 'cron' });
      expect(deadRun.error).toMatch(/stopped before it ended/);
      expect(deadRun.finished_at).not.toBeNull();
      const freshRun = (await get(`/admin/runs/${fresh!.id}`)).json() as RunBody;
      // PGlite is held by one process alone: every open run is a dead one's; on PostgreSQL a run
      // whose heartbeat is recent may belong to a live worker and stays
      expect(freshRun.status).toBe(db === 'pglite' ? 'interrupted' : 'queued');
    } finally {
      await next.close();
    }
  });
});
