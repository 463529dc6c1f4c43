import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import { DrizzleArticleRepository } from '../../src/infrastructure/db/repositories/article.repository.js';

interface Page {
  items: { title: string }[];
  total: number;
}

/** Issue 24: a search's terms are bounded, and searching is limited per client like sign-in. */
describe.each(dbKinds())('search bounds on %s', (kind) => {
  let t: TestApp;
  const search = async (q: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/articles?q=${encodeURIComponent(q)}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>();
  };
  const titles = (p: Page) => p.items.map((i) => i.title).sort();

  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    const db = t.container.database.db;
    const topicId = (await makeTopic(db)).id;
    await makeArticle(db, { topicId, title: 'Banana bread baking', summary: 'Bananas, flour and butter.' });
    await makeArticle(db, {
      topicId,
      title: 'Cherry orchards in spring',
      summary: 'alpha bravo charlie delta echo foxtrot golf hotel india juliet',
    });
  });
  afterAll(() => t?.close());

  it('matches no one- or two-letter word as a prefix of every longer word', async () => {
    // a one-letter word alone is matched whole: "b" is no prefix of "banana"
    expect((await search('b')).total).toBe(0);
    expect((await search('ba')).total).toBe(0);
    expect(titles(await search('ban'))).toEqual(['Banana bread baking']);
    // next to longer words a one-letter word is left out instead of narrowing to nothing
    expect(titles(await search('x banana'))).toEqual(['Banana bread baking']);
    // sixteen one-letter words: an answer, not a scan of every word of the corpus
    expect((await search('a b c d e f g h i j k l m n o p')).total).toBe(0);
  });

  it('takes at most eight terms of a query', async () => {
    const eight = 'alpha bravo charlie delta echo foxtrot golf hotel';
    expect(titles(await search(eight))).toEqual(['Cherry orchards in spring']);
    // words past the eighth are not searched (a 200-character query costs what eight words do)
    expect(titles(await search(`${eight} nowhereword`))).toEqual(['Cherry orchards in spring']);
    expect(titles(await search(`"alpha bravo" ${eight.slice(12)} golf hotel nowhereword`))).toEqual([
      'Cherry orchards in spring',
    ]);
  });

  it.runIf(kind === 'postgres')('cancels a search past its statement timeout with 422', async () => {
    const db = t.container.database.db;
    const topicId = (await makeTopic(db)).id;
    // 20,000 matches to rank: far more than the 1 ms this repository allows a search
    await db.execute(sql`
      insert into articles (topic_id, source, url, canonical_url, title, normalized_title, summary)
      select ${topicId}, 'Bulk', 'https://bulk.example.test/' || g, 'https://bulk.example.test/' || g,
             'Banana crop report ' || g, 'banana crop report ' || g, 'Bananas and more bananas ' || g
      from generate_series(1, 20000) g`);
    const repo = new DrizzleArticleRepository(db, Date.now, { searchTimeoutMs: 1 });
    const err = await repo
      .list({
        filter: { q: 'banana' },
        sort: { kind: 'relevance' },
        order: 'desc',
        limit: 20,
        offset: 0,
        viewerId: null,
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toMatchObject({ code: 'search_too_broad', kind: 'Invalid' });
  });
});

describe('rate limits of search and similar articles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { RATE_LIMIT_SEARCH_PER_MINUTE: '3', RATE_LIMIT_SIMILAR_PER_MINUTE: '2' },
    });
  });
  afterAll(() => t?.close());
  const get = (url: string, ip: string) =>
    t.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': ip } });

  it('answers 429 with Retry-After past the search limit, per client; the plain list is not counted', async () => {
    for (let i = 0; i < 5; i++) expect((await get('/articles?limit=1', '203.0.113.7')).statusCode).toBe(200);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(`/articles?q=word${i}`, '203.0.113.7')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await get('/articles?q=again', '203.0.113.7');
    expect(limited.json().error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // browsing stays open to the limited client, and another client has its own budget
    expect((await get('/articles?limit=1', '203.0.113.7')).statusCode).toBe(200);
    expect((await get('/articles?q=word', '198.51.100.9')).statusCode).toBe(200);
  });

  it('limits similar articles per client', async () => {
    const article = await makeArticle(t.container.database.db, { title: 'Lonely article' });
    const url = `/articles/${article.id}/similar`;
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(url, '203.0.113.8')).statusCode);
    expect(statuses).toEqual([200, 200, 429]);
    expect(Number((await get(url, '203.0.113.8')).headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(url, '198.51.100.10')).statusCode).toBe(200);
  });
});
