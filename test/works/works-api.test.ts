import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic, setMetric, type ArticleRow } from '../helpers/article-factories.js';
import { pino } from 'pino';
import { WorkLinker } from '../../src/application/works/work-linker.service.js';
import { DrizzleWorkStore } from '../../src/infrastructure/db/repositories/work.repository.js';

const silent = pino({ level: 'silent' });

interface Item {
  id: string;
  work: { id: string; versions: number; coverage: number };
  metrics: Record<string, number>;
}
interface Page {
  items: Item[];
  total: number;
}

describe.each(dbKinds())('works API (%s)', (db) => {
  let t: TestApp;
  let topicId: string;
  let preprint: ArticleRow;
  let published: ArticleRow;
  let news: ArticleRow;
  let lone: ArticleRow;
  const list = async (query: string) => {
    const res = await t.app.inject({ url: `/articles?topic_id=${topicId}&${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>();
  };

  beforeAll(async () => {
    t = await buildTestApp({ db });
    const d = t.container.database.db;
    topicId = (await makeTopic(d)).id;
    const day = (n: number) => new Date(Date.UTC(2026, 0, n));
    preprint = await makeArticle(d, {
      topicId,
      title: 'A preprint of the paper',
      arxivId: '2401.00001',
      publishedAt: day(1),
      scrapedAt: day(1),
    });
    published = await makeArticle(d, {
      topicId,
      title: 'The published paper',
      doi: '10.1000/journal.2026.1',
      publishedAt: day(5),
      scrapedAt: day(5),
    });
    news = await makeArticle(d, {
      topicId,
      title: 'News about the paper',
      content: 'Researchers report (doi:10.1000/journal.2026.1) a new result.',
      publishedAt: day(6),
      scrapedAt: day(6),
    });
    lone = await makeArticle(d, { topicId, title: 'Unrelated', publishedAt: day(3), scrapedAt: day(3) });
    await setMetric(d, preprint.id, 'citation_count', 7);
    await setMetric(d, published.id, 'citation_count', 40);
  });
  afterAll(() => t.close());

  it('lists each article with its work, and collapse=work shows one row per work', async () => {
    const linker = new WorkLinker(new DrizzleWorkStore(t.container.database.db), t.container.clock, silent);
    // the Crossref answer of the published DOI names its preprint
    await linker.recordLinks([
      { from: 'doi:10.1000/journal.2026.1', to: 'arxiv:2401.00001', evidence: 'crossref:has-preprint' },
    ]);
    await linker.linkArticles([preprint.id, published.id, news.id, lone.id]);

    const all = await list('sort=published_at&order=asc');
    expect(all.items.map((i) => i.id)).toEqual([preprint.id, lone.id, published.id, news.id]);
    const work = all.items[0]!.work;
    expect(work).toMatchObject({ versions: 2, coverage: 1 });
    expect(all.items[2]!.work).toEqual(work);
    expect(all.items[1]!.work).toEqual({ id: lone.id, versions: 1, coverage: 0 });
    expect(all.items[2]!.metrics.coverage_count).toBe(1);

    const collapsed = await list('collapse=work&sort=published_at&order=asc');
    expect(collapsed.items.map((i) => i.id)).toEqual([lone.id, published.id, news.id]);
    expect(collapsed.total).toBe(3);
    // a metric sort keeps its order and nulls last
    const byCoverage = await list('collapse=work&sort=coverage_count&order=desc');
    expect(byCoverage.items.map((i) => i.id)).toEqual([published.id, ...[lone.id, news.id].sort().reverse()]);
    // a search keeps working on the collapsed list
    const searched = await list('collapse=work&q=published');
    expect(searched.items.map((i) => i.id)).toEqual([published.id]);

    const res = await t.app.inject({ url: `/works/${work.id}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: work.id,
      title: 'The published paper',
      doi: '10.1000/journal.2026.1',
      arxiv_id: '2401.00001',
      citation_count: 40,
      coverage_count: 1,
      versions: [
        { article_id: published.id, role: 'published' },
        { article_id: preprint.id, role: 'preprint' },
        { article_id: news.id, role: 'coverage' },
      ],
    });
    // an article's id finds its work too
    expect((await t.app.inject({ url: `/works/${preprint.id}` })).json<{ id: string }>().id).toBe(work.id);
  });

  it('answers 404 for an unknown work and 422 for a bad id', async () => {
    const missing = await t.app.inject({ url: '/works/00000000-0000-4000-8000-000000000000' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ error: { code: string } }>().error.code).toBe('work_not_found');
    expect((await t.app.inject({ url: '/works/nope' })).statusCode).toBe(422);
    expect((await t.app.inject({ url: '/articles?collapse=topic' })).statusCode).toBe(422);
  });

  it('lets only admins split and merge, and validates what they send', async () => {
    const workId = (await list('sort=published_at&order=asc')).items[0]!.work.id;
    const body = { article_ids: [preprint.id] };
    const url = `/admin/works/${workId}/split`;
    expect((await t.app.inject({ method: 'POST', url, payload: body })).statusCode).toBe(401);
    const user = await t.login('user');
    expect(
      (await t.app.inject({ method: 'POST', url, payload: body, headers: user.headers })).statusCode,
    ).toBe(403);
    const admin = await t.login('admin');
    const all = await t.app.inject({
      method: 'POST',
      url,
      payload: { article_ids: [preprint.id, published.id] },
      headers: admin.headers,
    });
    expect(all.statusCode).toBe(422);
    expect(all.json<{ error: { code: string } }>().error.code).toBe('work_split_invalid');
    const split = await t.app.inject({ method: 'POST', url, payload: body, headers: admin.headers });
    expect(split.statusCode, split.body).toBe(200);
    // each side is now a work of one article: identified by that article's id
    expect(split.json()).toEqual({ work_ids: [published.id, preprint.id] });
    expect((await list('collapse=work')).total).toBe(4);

    const merge = await t.app.inject({
      method: 'POST',
      url: '/admin/works/merge',
      payload: { work_ids: [published.id, preprint.id] },
      headers: admin.headers,
    });
    expect(merge.statusCode, merge.body).toBe(200);
    expect((await list('collapse=work')).total).toBe(3);
    const one = await t.app.inject({
      method: 'POST',
      url: '/admin/works/merge',
      payload: { work_ids: [workId] },
      headers: admin.headers,
    });
    expect(one.statusCode).toBe(422);
  });
});

describe.each(dbKinds())('the list collapsed by work with filters (%s)', (db) => {
  let t: TestApp;
  let physics: string;
  let chemistry: string;
  let preprint: ArticleRow;
  let published: ArticleRow;
  let lone: ArticleRow;
  let reader: { headers: { authorization: string } };
  const ids = async (query: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ url: `/articles?collapse=work&sort=published_at&${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<Page>();
    expect(page.total).toBe(page.items.length);
    return page.items.map((i) => i.id);
  };

  beforeAll(async () => {
    t = await buildTestApp({ db });
    const d = t.container.database.db;
    physics = (await makeTopic(d)).id;
    chemistry = (await makeTopic(d)).id;
    const day = (n: number) => new Date(Date.UTC(2026, 3, n));
    // the preprint came in through a physics feed, its journal version only through a chemistry one
    preprint = await makeArticle(d, {
      topicId: physics,
      title: 'Superconducting hydrides under pressure (preprint)',
      arxivId: '2404.00404',
      source: 'arXiv',
      publishedAt: day(1),
      scrapedAt: day(1),
    });
    published = await makeArticle(d, {
      topicId: chemistry,
      title: 'Superconducting hydrides under pressure',
      doi: '10.1000/chem.2026.404',
      source: 'Journal',
      publishedAt: day(9),
      scrapedAt: day(9),
    });
    lone = await makeArticle(d, {
      topicId: physics,
      title: 'Quantum dots in a lone physics story',
      source: 'arXiv',
      publishedAt: day(5),
      scrapedAt: day(5),
    });
    const linker = new WorkLinker(new DrizzleWorkStore(d), t.container.clock, silent);
    await linker.recordLinks([
      { from: 'doi:10.1000/chem.2026.404', to: 'arxiv:2404.00404', evidence: 'crossref:has-preprint' },
    ]);
    await linker.linkArticles([preprint.id, published.id, lone.id]);
    reader = await t.login('user');
  });
  afterAll(() => t.close());

  it('keeps a work whose head is outside the topic or source, by the version inside it', async () => {
    expect(await ids(`topic_id=${chemistry}`)).toEqual([published.id]);
    // without the fallback the physics topic would lose the work: its head is in chemistry only
    expect(await ids(`topic_id=${physics}`)).toEqual([lone.id, preprint.id]);
    expect(await ids('source=arXiv')).toEqual([lone.id, preprint.id]);
    expect(await ids('source=Journal')).toEqual([published.id]);
    // without a filter the head stands for the work
    expect((await ids('')).filter((id) => [preprint.id, published.id].includes(id))).toEqual([published.id]);
  });

  it('applies the unread filter and a search to the collapsed rows', async () => {
    expect(await ids(`topic_id=${physics}&unread_only=true`, reader.headers)).toEqual([lone.id, preprint.id]);
    // reading the journal version marks the work (every version) read: it leaves both topics' unread lists
    const read = await t.app.inject({
      method: 'PUT',
      url: `/articles/${published.id}/read`,
      headers: reader.headers,
    });
    expect(read.statusCode, read.body).toBeLessThan(300);
    expect(await ids(`topic_id=${physics}&unread_only=true`, reader.headers)).toEqual([lone.id]);
    expect(await ids(`topic_id=${chemistry}&unread_only=true`, reader.headers)).toEqual([]);
    expect(await ids(`topic_id=${physics}`, reader.headers)).toEqual([lone.id, preprint.id]);
    // a search in the topic finds the work once
    expect(await ids(`topic_id=${physics}&q=hydrides`)).toEqual([preprint.id]);
    expect(await ids(`topic_id=${physics}&q=quantum`)).toEqual([lone.id]);
  });
});
