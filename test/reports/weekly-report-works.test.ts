import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/db.js';
import { startReportEnv, type ReportEnv } from '../helpers/report-env.js';
import { insertArticle, insertTopic } from '../helpers/report-factories.js';
import { articles } from '../../src/infrastructure/db/schema/index.js';
import { WorkLinker } from '../../src/application/works/work-linker.service.js';
import { DrizzleWorkStore } from '../../src/infrastructure/db/repositories/work.repository.js';

const WEEK = '2026-11-16';
const inWeek = (day: number) => new Date(Date.UTC(2026, 10, 16 + day, 12));

describe.each(dbKinds())('a weekly report cites a work once (%s)', (dbKind) => {
  let env: ReportEnv;
  const db = () => env.t.container.database.db;

  beforeAll(async () => {
    env = await startReportEnv(dbKind);
  });
  afterAll(() => env?.close());

  it('keeps the best version of each work among the week’s top articles, where its best-ranked version stood', async () => {
    const topic = await insertTopic(db(), 'Condensed Matter');
    // the preprint ranks first (more citations), its published version lower: cited once, as published
    const preprint = await insertArticle(db(), topic.id, {
      title: 'Layered nickelate magnet (preprint)',
      citations: 50,
      publishedAt: inWeek(0),
    });
    const other = await insertArticle(db(), topic.id, {
      title: 'Spin liquids in kagome lattices',
      citations: 20,
      publishedAt: inWeek(1),
    });
    const published = await insertArticle(db(), topic.id, {
      title: 'Layered nickelate magnet',
      citations: 9,
      publishedAt: inWeek(2),
    });
    // three outlets running one wire story: one citation, the earliest copy
    const copies = [];
    for (let i = 0; i < 3; i++)
      copies.push(
        await insertArticle(db(), topic.id, {
          title: `Wire story, outlet ${i}`,
          viewCount: 30 - i,
          publishedAt: inWeek(3 - i),
        }),
      );
    // a news story of another topic covering the paper: the cited work's coverage, not a candidate
    const elsewhere = await insertTopic(db(), 'Science news');
    const news = await insertArticle(db(), elsewhere.id, {
      title: 'A magnet that keeps its order when warm',
      summary: 'The team reports (doi:10.1000/prb.2026.5) a magnet in layered nickelates.',
      publishedAt: inWeek(3),
    });
    await db().update(articles).set({ arxivId: '2411.05555' }).where(eq(articles.id, preprint.id));
    await db().update(articles).set({ doi: '10.1000/prb.2026.5' }).where(eq(articles.id, published.id));
    const store = new DrizzleWorkStore(db());
    const linker = new WorkLinker(store, env.t.container.clock, pino({ level: 'silent' }));
    await linker.recordLinks([
      { from: 'doi:10.1000/prb.2026.5', to: 'arxiv:2411.05555', evidence: 'crossref:has-preprint' },
    ]);
    await linker.linkArticles([preprint.id, published.id, other.id, news.id]);
    // the copies' texts here are too short to fingerprint: an admin's merge joins them
    const merged = await env.t.app.inject({
      method: 'POST',
      url: '/admin/works/merge',
      payload: { work_ids: copies.map((c) => c.id) },
      headers: env.admin.headers,
    });
    expect(merged.statusCode, merged.body).toBe(200);

    const res = await env.runJob({ topic_id: topic.id, week_start: WEEK });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().topics[0]).toMatchObject({ status: 'created', article_count: 3 });
    const report = (await env.t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}` })).json<{
      article_count: number;
      sources: { id: string; coverage: number }[];
      summary_text: string;
    }>();
    expect(report.sources.map((s) => s.id)).toEqual([published.id, other.id, copies[2]!.id]);
    // the source list says how many articles cover each cited work
    expect(report.sources.map((s) => s.coverage)).toEqual([1, 0, 0]);
    expect(report.summary_text).not.toContain('(preprint)');
    expect(report.summary_text).not.toContain('outlet 0');
  });
});
