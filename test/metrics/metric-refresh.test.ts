import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeMetricDefinition, setMetric } from '../helpers/article-factories.js';
import { HttpPeer, sendJson, type RecordedRequest } from '../peers/http-peer.js';
import { articleMetrics } from '../../src/infrastructure/db/schema/index.js';
import { startAndWait } from '../helpers/runs.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';

/** citation counts each fake API knows, by the id it is asked for */
type Known = Map<string, number | null>;

describe.each(dbKinds())('metric refresh (%s) against citation peers on loopback', (kind) => {
  let t: TestApp;
  let admin: { authorization: string };
  const s2Known: Known = new Map();
  const oaKnown: Known = new Map();
  const crKnown: Known = new Map();
  /** responses to play before the normal answer, per peer */
  const s2Failures: { status: number; headers?: Record<string, string> }[] = [];

  const s2 = new HttpPeer((req, res) => {
    const failure = s2Failures.shift();
    if (failure) return sendJson(res, failure.status, { error: 'busy' }, failure.headers);
    if (req.method === 'POST' && req.path === '/graph/v1/paper/batch') {
      const ids = (req.json() as { ids: string[] }).ids;
      return sendJson(
        res,
        200,
        ids.map((id) => (s2Known.has(id) ? { paperId: id, citationCount: s2Known.get(id) } : null)),
      );
    }
    const id = decodeURIComponent(req.path.replace('/graph/v1/paper/', ''));
    if (req.query.get('fields') !== 'citationCount,externalIds' || !s2Known.has(id))
      return sendJson(res, 404, {});
    sendJson(res, 200, { paperId: 'p', citationCount: s2Known.get(id) });
  });
  const oaFailures: { status: number; headers?: Record<string, string> }[] = [];
  const openAlex = new HttpPeer((req, res) => {
    const failure = oaFailures.shift();
    if (failure) return sendJson(res, failure.status, { error: 'busy' }, failure.headers);
    const id = decodeURIComponent(req.path.replace('/works/', ''));
    if (!oaKnown.has(id)) return sendJson(res, 404, {});
    sendJson(res, 200, { id: 'W1', cited_by_count: oaKnown.get(id) });
  });
  const crossref = new HttpPeer((req, res) => {
    const id = decodeURIComponent(req.path.replace('/works/', ''));
    if (!crKnown.has(id)) return sendJson(res, 404, { status: 'error' });
    sendJson(res, 200, { status: 'ok', message: { 'is-referenced-by-count': crKnown.get(id) } });
  });
  const peers = [s2, openAlex, crossref];
  const paths = (p: HttpPeer) => p.requests.map((r: RecordedRequest) => r.path);

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
    admin = (await t.login('admin')).headers;
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(peers.map((p) => p.stop()));
  });
  beforeEach(() => {
    for (const p of peers) p.requests.length = 0;
    s2Failures.length = 0;
    oaFailures.length = 0;
  });

  const db = () => t.container.database.db;
  /** through the admin endpoint (202) and the run record; by_source from its from_<source> fields */
  const refresh = async () => {
    const run = await startAndWait(t.app, admin, '/admin/jobs/refresh-metrics');
    const fields = run.summary as Record<string, number>;
    const by_source = Object.fromEntries(
      Object.entries(fields)
        .filter(([k]) => k.startsWith('from_'))
        .map(([k, n]) => [k.slice('from_'.length), n]),
    );
    return {
      articles: fields.articles!,
      updated: fields.updated!,
      unchanged: fields.unchanged!,
      failed: fields.failed!,
      by_source,
      run,
    };
  };
  const stored = async (articleId: string, key = 'citation_count') =>
    (
      await db()
        .select()
        .from(articleMetrics)
        .where(and(eq(articleMetrics.articleId, articleId), eq(articleMetrics.metricKey, key)))
    )[0];
  const citationsShown = async (articleId: string) => {
    const res = await t.app.inject({ url: `/articles/${articleId}` });
    expect(res.statusCode).toBe(200);
    return (res.json() as { metrics: Record<string, number | null> }).metrics.citation_count;
  };

  it('takes the first non-null source in priority order and stores its name', async () => {
    const a = await makeArticle(db(), { doi: '10.1000/first' });
    const b = await makeArticle(db(), { doi: '10.1000/second' });
    s2Known.set('DOI:10.1000/first', 42);
    oaKnown.set('doi:10.1000/first', 41);
    // Semantic Scholar does not know b: OpenAlex answers null, Crossref has the value
    oaKnown.set('doi:10.1000/second', null);
    crKnown.set('10.1000/second', 7);

    const summary = await refresh();
    expect(summary).toMatchObject({ articles: 2, updated: 2, unchanged: 0, failed: 0 });
    expect(summary.by_source).toEqual({ semantic_scholar: 1, crossref: 1 });
    expect(await stored(a.id)).toMatchObject({ value: 42, source: 'semantic_scholar' });
    expect(await stored(b.id)).toMatchObject({ value: 7, source: 'crossref' });
    // a was answered by the first source: the later ones were never asked about it
    expect(paths(openAlex)).toEqual(['/works/doi:10.1000/second']);
    expect(paths(crossref)).toEqual(['/works/10.1000/second']);
    expect(await citationsShown(a.id)).toBe(42);
  });

  it('resolves an arXiv id from metadata and skips the DOI-only source', async () => {
    const a = await makeArticle(db(), {
      metadata: { links: [], arxiv_url: 'https://arxiv.org/abs/2401.01234v2' },
    });
    const b = await makeArticle(db(), { metadata: { arxiv_id: '2402.05678' } });
    s2Known.set('ARXIV:2401.01234', 3);
    oaKnown.set('doi:10.48550/arXiv.2402.05678', 9);

    const summary = await refresh();
    expect(summary).toMatchObject({ articles: 2, updated: 2, failed: 0 });
    expect(await stored(a.id)).toMatchObject({ value: 3, source: 'semantic_scholar' });
    expect(await stored(b.id)).toMatchObject({ value: 9, source: 'openalex' });
    expect(paths(s2).sort()).toEqual([
      '/graph/v1/paper/ARXIV:2401.01234',
      '/graph/v1/paper/ARXIV:2402.05678',
    ]);
    // Crossref needs a DOI: never asked (b had no value anywhere else than OpenAlex)
    expect(crossref.requests).toHaveLength(0);
  });

  it('stores null with its time when no source has a value, and does not ask again while fresh', async () => {
    const known = await makeArticle(db(), { doi: '10.1000/nowhere' });
    const noIds = await makeArticle(db(), { metadata: { note: 'no identifiers' } });
    const summary = await refresh();
    // a first "no value" is no change: the run does not claim it updated anything
    expect(summary).toMatchObject({
      articles: 2,
      updated: 0,
      unchanged: 2,
      failed: 0,
      by_source: { none: 2 },
    });
    expect(await stored(known.id)).toMatchObject({ value: null, source: null });
    expect((await stored(noIds.id))?.refreshedAt).toBeInstanceOf(Date);
    // three sources asked for the DOI, none for the article without identifiers
    expect(peers.map((p) => p.requests.length)).toEqual([1, 1, 1]);

    for (const p of peers) p.requests.length = 0;
    expect(await refresh()).toMatchObject({ articles: 0, updated: 0 });
    expect(peers.map((p) => p.requests.length)).toEqual([0, 0, 0]);
  });

  it('retries a 429 after its Retry-After, then keeps the answer', async () => {
    const a = await makeArticle(db(), { doi: '10.1000/busy' });
    s2Known.set('DOI:10.1000/busy', 5);
    s2Failures.push({ status: 429, headers: { 'retry-after': '0' } }, { status: 503 });
    const summary = await refresh();
    expect(summary).toMatchObject({ articles: 1, updated: 1, failed: 0, by_source: { semantic_scholar: 1 } });
    expect(s2.requests).toHaveLength(3);
    expect(openAlex.requests).toHaveLength(0);
    expect(await stored(a.id)).toMatchObject({ value: 5, source: 'semantic_scholar' });
  });

  it('refreshes only stale values and updates them without a new scrape', async () => {
    const fresh = await makeArticle(db(), { doi: '10.1000/fresh' });
    const stale = await makeArticle(db(), { doi: '10.1000/stale' });
    const same = await makeArticle(db(), { doi: '10.1000/same' });
    await setMetric(db(), fresh.id, 'citation_count', 1, 'semantic_scholar');
    await setMetric(db(), stale.id, 'citation_count', 10, 'semantic_scholar');
    await setMetric(db(), same.id, 'citation_count', 4, 'semantic_scholar');
    await db()
      .update(articleMetrics)
      .set({ refreshedAt: sql`now() - interval '25 hours'` })
      .where(sql`${articleMetrics.articleId} in (${stale.id}, ${same.id})`);
    s2Known.set('DOI:10.1000/fresh', 100);
    s2Known.set('DOI:10.1000/stale', 11);
    s2Known.set('DOI:10.1000/same', 4);

    const summary = await refresh();
    expect(summary).toMatchObject({ articles: 2, updated: 1, unchanged: 1, failed: 0 });
    expect(paths(s2).sort()).toEqual([
      '/graph/v1/paper/DOI:10.1000/same',
      '/graph/v1/paper/DOI:10.1000/stale',
    ]);
    expect(await stored(fresh.id)).toMatchObject({ value: 1 });
    const after = await stored(stale.id);
    expect(after).toMatchObject({ value: 11, source: 'semantic_scholar' });
    expect(Date.now() - after!.refreshedAt.getTime()).toBeLessThan(60_000);
    expect(await citationsShown(stale.id)).toBe(11);
  });

  it('covers every enabled metric, skips disabled ones and leaves failing sources for the next run', async () => {
    await makeMetricDefinition(db(), {
      metricKey: 'oa_citations',
      priority: 20,
      extractionSources: [{ provider: 'openalex', priority: 1 }],
    });
    await makeMetricDefinition(db(), {
      metricKey: 'off_metric',
      enabled: false,
      extractionSources: [{ provider: 'crossref', priority: 1 }],
    });
    const a = await makeArticle(db(), { doi: '10.1000/two-metrics' });
    s2Known.set('DOI:10.1000/two-metrics', 8);
    oaKnown.set('doi:10.1000/two-metrics', 6);
    const summary = await refresh();
    // the earlier articles now lack oa_citations too: they are picked up for that key only
    expect(summary.failed).toBe(0);
    expect(await stored(a.id)).toMatchObject({ value: 8, source: 'semantic_scholar' });
    expect(await stored(a.id, 'oa_citations')).toMatchObject({ value: 6, source: 'openalex' });
    expect(await stored(a.id, 'off_metric')).toBeUndefined();
    expect(crossref.requests).toHaveLength(0);
  });

  it('leaves a value whose every source keeps failing for the next run', async () => {
    // arXiv only: Crossref is skipped, Semantic Scholar and OpenAlex answer 500 on every attempt
    const a = await makeArticle(db(), { arxivId: '2403.00001', title: 'Sparse attention at scale' });
    const down = { status: 500, headers: { 'retry-after': '0' } };
    s2Failures.push(...Array.from({ length: 4 }, () => down));
    oaFailures.push(...Array.from({ length: 8 }, () => down));
    const summary = await refresh();
    // citation_count and oa_citations (previous test) both failed; nothing stored
    expect(summary).toMatchObject({ articles: 1, updated: 0, failed: 2, by_source: {} });
    // the run says which article failed and which sources did not answer
    expect(summary.run).toMatchObject({ kind: 'metrics', status: 'completed_with_errors', trigger: 'admin' });
    expect(summary.run.progress).toEqual({ done: 1, total: 1 });
    expect(summary.run.errors).toHaveLength(2);
    expect(summary.run.errors.map((e) => e.article_id)).toEqual([a.id, a.id]);
    // each failed article is named by its title, with the reason
    expect(summary.run.errors.map((e) => e.article_title)).toEqual([
      'Sparse attention at scale',
      'Sparse attention at scale',
    ]);
    const messages = summary.run.errors.map((e) => e.message).sort();
    // citation_count: both sources it may ask; oa_citations: OpenAlex only
    expect(messages[0]).toBe('openalex answered 500');
    expect(messages[1]).toBe('semantic_scholar answered 500; openalex answered 500');
    expect(s2.requests).toHaveLength(4);
    expect(await stored(a.id)).toBeUndefined();

    s2Known.set('ARXIV:2403.00001', 2);
    const second = await refresh();
    // citation_count changed (none → 2); oa_citations has no value at OpenAlex: no change
    expect(second).toMatchObject({ articles: 1, updated: 1, unchanged: 1, failed: 0 });
    expect(second.run).toMatchObject({ status: 'completed', error_count: 0, errors: [] });
    expect(await stored(a.id)).toMatchObject({ value: 2, source: 'semantic_scholar' });
  });

  it('pages through more articles than one page holds, each exactly once', async () => {
    const topicId = (await makeArticle(db(), { doi: '10.1000/bulk-0' })).topicId;
    s2Known.set('DOI:10.1000/bulk-0', 0);
    await db().execute(sql`
      insert into articles (topic_id, source, url, canonical_url, title, normalized_title, doi)
      select ${topicId}, 'Bulk', 'https://bulk.example.test/' || g, 'https://bulk.example.test/' || g,
             'Bulk ' || g, 'bulk ' || g, '10.1000/bulk-' || g
      from generate_series(1, 549) g`);
    for (let i = 1; i < 550; i++) s2Known.set(`DOI:10.1000/bulk-${i}`, i);
    // two metrics are enabled (citation_count and oa_citations from an earlier test)
    oaKnown.clear();
    const summary = await refresh();
    expect(summary).toMatchObject({ articles: 550, failed: 0 });
    // two pages (500 + 50), one Semantic Scholar batch request each
    expect(s2.requests.map((r) => [r.method, r.path, (r.json() as { ids: string[] }).ids.length])).toEqual([
      ['POST', '/graph/v1/paper/batch', 500],
      ['POST', '/graph/v1/paper/batch', 50],
    ]);
    const [row] = rowsOf<{ n: number | string; s: number | string }>(
      await db().execute(sql`
        select count(*) as n, sum(value) as s from article_metrics
        where metric_key = 'citation_count' and source = 'semantic_scholar'
          and article_id in (select id from articles where doi like '10.1000/bulk-%')`),
    );
    expect([Number(row!.n), Number(row!.s)]).toEqual([550, (549 * 550) / 2]);
    expect(await refresh()).toMatchObject({ articles: 0 });
  });

  it('counts only values that changed, and names an article that is gone since by its id', async () => {
    const stale = await makeArticle(db(), { doi: '10.1000/recount', title: 'Recounted' });
    await setMetric(db(), stale.id, 'citation_count', 3, 'semantic_scholar');
    await setMetric(db(), stale.id, 'oa_citations', null, 'openalex');
    await db()
      .update(articleMetrics)
      .set({ refreshedAt: sql`now() - interval '25 hours'` })
      .where(eq(articleMetrics.articleId, stale.id));
    s2Known.set('DOI:10.1000/recount', 3);
    const same = await refresh();
    expect(same).toMatchObject({ articles: 1, updated: 0, unchanged: 2, failed: 0 });
    expect(same.run.summary).toMatchObject({ updated: 0, unchanged: 2 });

    const gone = await makeArticle(db(), { arxivId: '2403.00009', title: 'Soon deleted' });
    const down = { status: 500, headers: { 'retry-after': '0' } };
    s2Failures.push(...Array.from({ length: 4 }, () => down));
    oaFailures.push(...Array.from({ length: 8 }, () => down));
    const failed = await refresh();
    expect(failed.run.errors[0]).toMatchObject({ article_id: gone.id, article_title: 'Soon deleted' });
    await db().execute(sql`delete from articles where id = ${gone.id}`);
    const res = await t.app.inject({ url: `/admin/runs/${failed.run.id}`, headers: admin });
    const [first] = (res.json() as { errors: Record<string, unknown>[] }).errors;
    expect(first).toMatchObject({ article_id: gone.id });
    expect(first).not.toHaveProperty('article_title');
  });

  it('is admin only', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/admin/jobs/refresh-metrics' })).statusCode).toBe(401);
    const user = await t.login('user');
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/jobs/refresh-metrics',
      headers: user.headers,
    });
    expect(res.statusCode).toBe(403);
  });
});
