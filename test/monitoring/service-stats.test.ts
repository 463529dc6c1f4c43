import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeSource, makeTopic, setMetric } from '../helpers/article-factories.js';
import { scraperRuns } from '../../src/infrastructure/db/schema/index.js';

const DAY = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

interface Stats {
  days: number;
  runs_per_day: {
    day: string;
    completed: number;
    completed_with_errors: number;
    failed: number;
    interrupted: number;
    running: number;
  }[];
  failures_per_stage: { stage: string; count: number }[];
  articles_per_source: { source: string; count: number }[];
  citation_coverage: { articles: number; with_citation: number; share: number | null };
  last_run_per_source: {
    name: string;
    topic: string;
    last_fetched_at: string | null;
    last_error: string | null;
    last_article_at: string | null;
  }[];
}

describe.each(dbKinds())('GET /admin/service-stats (%s)', (db) => {
  let t: TestApp;
  let admin: { authorization: string };
  const now = new Date();
  beforeAll(async () => {
    t = await buildTestApp({ db });
    admin = (await t.login('admin')).headers;
    const d = t.container.database.db;
    const topic = await makeTopic(d, { name: 'Physics' });
    const feed = await makeSource(d, {
      topicId: topic.id,
      name: 'Feed A',
      lastFetchedAt: new Date(now.getTime() - 3_600_000),
      lastError: 'HTTP 404',
    });
    await makeSource(d, { topicId: topic.id, name: 'Feed B' });
    const old = new Date(now.getTime() - 40 * DAY);
    await d.insert(scraperRuns).values([
      {
        correlationId: 'c1',
        status: 'completed',
        startedAt: now,
        counts: { analysis_failed: 2, published: 5 },
      },
      { correlationId: 'c2', status: 'failed', startedAt: now, counts: { extraction_failed: 1 } },
      // every final status is its own series: runs with problems, and interrupted ones, count too
      { correlationId: 'c5', status: 'completed_with_errors', startedAt: now, counts: {} },
      { correlationId: 'c6', status: 'completed_with_errors', startedAt: now, counts: {} },
      { correlationId: 'c7', status: 'interrupted', startedAt: now, counts: {} },
      { correlationId: 'c8', status: 'queued', startedAt: now, counts: {} },
      {
        correlationId: 'c3',
        status: 'completed',
        startedAt: new Date(now.getTime() - 2 * DAY),
        counts: { analysis_failed: 1 },
      },
      // outside a 30-day window: counted by nothing
      { correlationId: 'c4', status: 'failed', startedAt: old, counts: { analysis_failed: 50 } },
    ]);
    const a1 = await makeArticle(d, { topicId: topic.id, source: 'Feed A', sourceId: feed.id });
    const a2 = await makeArticle(d, { topicId: topic.id, source: 'Feed A', sourceId: feed.id });
    await makeArticle(d, { topicId: topic.id, source: 'Other' });
    await makeArticle(d, { topicId: topic.id, source: 'Old', scrapedAt: old });
    await setMetric(d, a1.id, 'citation_count', 3);
    await setMetric(d, a2.id, 'citation_count', null); // a row without a value is not coverage
  });
  afterAll(() => t?.close());

  it('answers runs per day, failures per stage, articles per source, citation coverage and last runs', async () => {
    const res = await t.app.inject({ url: '/admin/service-stats?days=30', headers: admin });
    expect(res.statusCode).toBe(200);
    const s = res.json() as Stats;
    expect(s.days).toBe(30);
    expect(s.runs_per_day).toHaveLength(30);
    expect(s.runs_per_day.at(-1)).toEqual({
      day: dayOf(now),
      completed: 1,
      completed_with_errors: 2,
      failed: 1,
      interrupted: 1,
      running: 1,
    });
    expect(s.runs_per_day.find((r) => r.day === dayOf(new Date(now.getTime() - 2 * DAY)))?.completed).toBe(1);
    expect(s.failures_per_stage).toEqual([
      { stage: 'analysis', count: 3 },
      { stage: 'extraction', count: 1 },
    ]);
    expect(s.articles_per_source).toEqual([
      { source: 'Feed A', count: 2 },
      { source: 'Other', count: 1 },
    ]);
    expect(s.citation_coverage).toEqual({ articles: 3, with_citation: 1, share: 1 / 3 });
    const [first, second] = s.last_run_per_source;
    expect(first).toMatchObject({ name: 'Feed A', topic: 'Physics', last_error: 'HTTP 404' });
    expect(first!.last_article_at).not.toBeNull();
    expect(second).toMatchObject({ name: 'Feed B', last_fetched_at: null, last_article_at: null });
  });

  it('widens the window with days, and refuses a bad one and a non-admin', async () => {
    const wide = (
      await t.app.inject({ url: '/admin/service-stats?days=60', headers: admin })
    ).json() as Stats;
    expect(wide.runs_per_day).toHaveLength(60);
    expect(wide.failures_per_stage[0]).toEqual({ stage: 'analysis', count: 53 });
    expect(wide.citation_coverage.articles).toBe(4);
    for (const days of ['0', '366', 'abc'])
      expect(
        (await t.app.inject({ url: `/admin/service-stats?days=${days}`, headers: admin })).statusCode,
      ).toBe(422);
    const user = (await t.login('user')).headers;
    expect((await t.app.inject({ url: '/admin/service-stats', headers: user })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/admin/service-stats' })).statusCode).toBe(401);
  });
});
