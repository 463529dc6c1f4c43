import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, setMetric } from '../helpers/article-factories.js';
import { HttpPeer, sendJson } from '../peers/http-peer.js';
import { articleMetrics } from '../../src/infrastructure/db/schema/index.js';

// Citations on arrival: the tick every minute (MetricRefreshService.lookUpArrivals) against the
// three citation APIs as real HTTP peers on loopback.
describe.each(dbKinds())('citation lookup on arrival (%s)', (kind) => {
  let t: TestApp;
  const s2Known = new Map<string, number>();
  let s2Down = false;
  const s2 = new HttpPeer((req, res) => {
    if (s2Down) return sendJson(res, 500, {}, { 'retry-after': '0' });
    if (req.method === 'POST' && req.path === '/graph/v1/paper/batch') {
      const ids = (req.json() as { ids: string[] }).ids;
      return sendJson(
        res,
        200,
        ids.map((id) => (s2Known.has(id) ? { paperId: id, citationCount: s2Known.get(id) } : null)),
      );
    }
    const id = decodeURIComponent(req.path.replace('/graph/v1/paper/', ''));
    if (!s2Known.has(id)) return sendJson(res, 404, {});
    sendJson(res, 200, { paperId: 'p', citationCount: s2Known.get(id) });
  });
  // OpenAlex and Crossref know nothing: an article Semantic Scholar lacks ends with "no value"
  const openAlex = new HttpPeer((_req, res) =>
    s2Down ? sendJson(res, 500, {}, { 'retry-after': '0' }) : sendJson(res, 404, {}),
  );
  const crossref = new HttpPeer((_req, res) =>
    s2Down ? sendJson(res, 500, {}, { 'retry-after': '0' }) : sendJson(res, 404, { status: 'error' }),
  );
  const peers = [s2, openAlex, crossref];
  const asked = () => peers.reduce((n, p) => n + p.requests.length, 0);

  beforeAll(async () => {
    await Promise.all(peers.map((p) => p.start()));
    t = await buildTestApp({
      db: kind,
      env: {
        SEMANTIC_SCHOLAR_API_URL: s2.url,
        OPENALEX_API_URL: openAlex.url,
        CROSSREF_API_URL: crossref.url,
        CITATION_REQUESTS_PER_SECOND: '1000',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all(peers.map((p) => p.stop()));
  });
  beforeEach(() => {
    for (const p of peers) p.requests.length = 0;
    s2Down = false;
  });

  const db = () => t.container.database.db;
  const tick = () => t.container.batch.metricRefresh.lookUpArrivals();
  const stored = async (articleId: string) =>
    (
      await db()
        .select()
        .from(articleMetrics)
        .where(and(eq(articleMetrics.articleId, articleId), eq(articleMetrics.metricKey, 'citation_count')))
    )[0];

  it('looks up the new articles that carry a DOI or arXiv id, once, and leaves the rest', async () => {
    const old = await makeArticle(db(), {
      doi: '10.1000/old',
      scrapedAt: new Date(Date.now() - 3 * 86_400_000),
    });
    const doi = await makeArticle(db(), { doi: '10.1000/new' });
    const arxiv = await makeArticle(db(), { url: 'https://arxiv.org/abs/2411.01234v2' });
    const unknown = await makeArticle(db(), { doi: '10.1000/unknown' });
    const blog = await makeArticle(db(), { url: 'https://blog.example.test/post', metadata: {} });
    const known = await makeArticle(db(), { doi: '10.1000/known' });
    await setMetric(db(), known.id, 'citation_count', 5, 'semantic_scholar');
    s2Known.set('DOI:10.1000/new', 12);
    s2Known.set('ARXIV:2411.01234', 3);
    s2Known.set('DOI:10.1000/old', 99);
    s2Known.set('DOI:10.1000/known', 77);

    const coverage = async (query = '') =>
      (await t.app.inject({ url: `/articles/metric-coverage?metric_key=citation_count${query}` })).json();
    // before the tick: one article of six has a value; four with an identifier wait for a lookup
    expect(await coverage()).toEqual({
      metric_key: 'citation_count',
      topic_id: null,
      articles: 6,
      with_value: 1,
      share: 1 / 6,
      pending_lookups: 4,
    });

    const first = await tick();
    expect(first).toMatchObject({ articles: 3, updated: 2, unchanged: 1, failed: 0 });
    expect(await stored(doi.id)).toMatchObject({ value: 12, source: 'semantic_scholar' });
    expect(await stored(arxiv.id)).toMatchObject({ value: 3, source: 'semantic_scholar' });
    // asked everywhere, no value anywhere: a row without a value, not asked again each minute
    expect(await stored(unknown.id)).toMatchObject({ value: null, source: null });
    // no identifier: nothing to ask; older than a day: the daily refresh's; looked up: kept
    expect(await stored(blog.id)).toBeUndefined();
    expect(await stored(old.id)).toBeUndefined();
    expect(await stored(known.id)).toMatchObject({ value: 5 });

    expect(await coverage()).toMatchObject({ articles: 6, with_value: 3, share: 0.5, pending_lookups: 1 });
    expect(await coverage(`&topic_id=${doi.topicId}`)).toMatchObject({
      topic_id: doi.topicId,
      articles: 1,
      with_value: 1,
      share: 1,
    });
    const disabled = await t.app.inject({ url: '/articles/metric-coverage?metric_key=nope' });
    expect(disabled.statusCode).toBe(422);
    expect(disabled.json().error.code).toBe('validation_error');

    // the next minute: nothing new, nothing asked
    for (const p of peers) p.requests.length = 0;
    expect(await tick()).toMatchObject({ articles: 0 });
    expect(asked()).toBe(0);

    // sorting by citations now orders the new articles by their counts
    const page = await t.app.inject({ url: '/articles?sort=citation_count&order=desc&limit=100' });
    const ids = (page.json() as { items: { id: string }[] }).items.map((a) => a.id);
    expect(ids.indexOf(doi.id)).toBeLessThan(ids.indexOf(known.id));
    expect(ids.indexOf(known.id)).toBeLessThan(ids.indexOf(arxiv.id));
  });

  it('tries an article whose sources failed again at the next tick, and works off a burst over several ticks', async () => {
    const flaky = await makeArticle(db(), { doi: '10.1000/flaky' });
    s2Known.set('DOI:10.1000/flaky', 8);
    s2Down = true;
    expect(await tick()).toMatchObject({ articles: 1, failed: 1 });
    expect(await stored(flaky.id)).toBeUndefined();
    s2Down = false;
    expect(await tick()).toMatchObject({ articles: 1, updated: 1, failed: 0 });
    expect(await stored(flaky.id)).toMatchObject({ value: 8 });

    // 250 new articles: 200 in one tick (one batch request), the other 50 in the next
    const topicId = flaky.topicId;
    await db().execute(sql`
      insert into articles (topic_id, source, url, canonical_url, title, normalized_title, doi, scraped_at)
      select ${topicId}, 'Burst', 'https://burst.example.test/' || g, 'https://burst.example.test/' || g,
             'Burst ' || g, 'burst ' || g, '10.1000/burst-' || g, now() + g * interval '1 millisecond'
      from generate_series(1, 250) g`);
    for (let i = 1; i <= 250; i++) s2Known.set(`DOI:10.1000/burst-${i}`, i);
    for (const p of peers) p.requests.length = 0;
    expect(await tick()).toMatchObject({ articles: 200, updated: 200 });
    expect(s2.requests.map((r) => [r.method, r.path])).toEqual([['POST', '/graph/v1/paper/batch']]);
    expect(await tick()).toMatchObject({ articles: 50, updated: 50 });
    expect(await tick()).toMatchObject({ articles: 0 });
  });
});
