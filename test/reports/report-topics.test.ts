import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { dbKinds } from '../helpers/db.js';
import { startReportEnv, type ReportEnv } from '../helpers/report-env.js';
import { insertArticle, insertProvider, insertTopic } from '../helpers/report-factories.js';

/**
 * An article the sources of two topics carried (one row, linked to both) is in both topics'
 * weekly reports (one row: its citations and views are the same in both).
 */
describe.each(dbKinds())('weekly reports of an article in two topics (%s)', (db) => {
  let env: ReportEnv;
  beforeAll(async () => {
    env = await startReportEnv(db);
  });
  afterAll(() => env?.close());

  it('cites the shared article in both topics and the other article only in its own', async () => {
    const d = env.t.container.database.db;
    await insertProvider(d, { baseUrl: env.llm.baseUrl });
    const first = await insertTopic(d);
    const second = await insertTopic(d);
    const day = new Date('2026-11-10T10:00:00Z');
    const shared = await insertArticle(d, first.id, { publishedAt: day, citations: 12, viewCount: 3 });
    const own = await insertArticle(d, first.id, { publishedAt: day });
    await d.execute(
      sql`insert into article_topics (article_id, topic_id) values (${shared.id}, ${second.id})`,
    );

    // without a topic: every active topic with articles in the week, the second one included
    const res = await env.runJob({ week_start: '2026-11-09' });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const statuses = new Map(
      (res.json() as { topics: { topic_id: string; status: string }[] }).topics.map((x) => [
        x.topic_id,
        x.status,
      ]),
    );
    expect(statuses.get(first.id)).toBe('created');
    expect(statuses.get(second.id)).toBe('created');

    const latest = async (topicId: string) =>
      (await env.t.app.inject({ url: `/weekly-reports/latest?topic_id=${topicId}` })).json<{
        article_count: number;
        sources: { public_article_id: string }[];
      }>();
    const a = await latest(first.id);
    const b = await latest(second.id);
    expect(a.article_count).toBe(2);
    expect(a.sources.map((s) => s.public_article_id).sort()).toEqual([shared.id, own.id].sort());
    expect(b.article_count).toBe(1);
    expect(b.sources.map((s) => s.public_article_id)).toEqual([shared.id]);
  });
});
