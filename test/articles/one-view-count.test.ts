import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cacheKinds, dbKinds } from '../helpers/db.js';
import { makeArticles, makeTopic, type ArticleRow } from '../helpers/article-factories.js';

const combos = dbKinds().flatMap((db) => cacheKinds().map((cache) => [db, cache] as const));

interface ListBody {
  items: { id: string; view_count: number }[];
}

/**
 * One view count: right after a view the list shows the same count as the reader view (the counter
 * not yet flushed included), and within seconds sorting by views ranks the article by it, without
 * a view counted twice by the quick flush and the periodic one.
 */
describe.each(combos)('one view count on %s with the %s cache', (db, cache) => {
  let t: TestApp;
  let admin: { authorization: string };
  let articles: ArticleRow[];
  beforeAll(async () => {
    t = await buildTestApp({ db, cache, env: { VIEW_COUNT_RECENT_FLUSH_SECONDS: '1' } });
    admin = (await t.login('admin')).headers;
    const topic = await makeTopic(t.container.database.db);
    articles = await makeArticles(t.container.database.db, 30, () => ({ topicId: topic.id }));
  });
  afterAll(() => t.close());

  const view = (id: string, ip: string) =>
    t.app.inject({ method: 'POST', url: `/articles/${id}/view`, headers: { 'x-forwarded-for': ip } });
  const list = async (query: string) =>
    (await t.app.inject({ url: `/articles?limit=100&${query}` })).json<ListBody>().items;
  const stored = async (id: string) => {
    const [row] = rowsOf<{ n: number | null }>(
      await t.container.database.db.execute(
        sql`select view_count as n from article_view_counts where article_id = ${id}`,
      ),
    );
    return row?.n ?? null;
  };

  it('the list shows the reader view’s count right after a view, and the sort by views follows within seconds', async () => {
    // the oldest article, last in the default order and last of the never-viewed ones
    const target = articles[0]!;
    for (const ip of ['10.2.0.1', '10.2.0.2', '10.2.0.3'])
      expect((await view(target.id, ip)).statusCode).toBe(204);
    const reader = (await t.app.inject({ url: `/articles/${target.id}` })).json<{ view_count: number }>();
    const inList = (await list('sort=scraped_at')).find((a) => a.id === target.id)!;
    expect(reader.view_count).toBe(3);
    expect(inList.view_count).toBe(3);

    // moved into the stored count by the quick flush (never-viewed articles tie, so the sort alone
    // could put the target first by chance before it): then sorting by views ranks it first
    await expect.poll(() => stored(target.id), { timeout: 10_000, interval: 100 }).toBe(3);
    expect((await list('sort=view_count&order=desc'))[0]?.id).toBe(target.id);
    const flush = await t.app.inject({
      method: 'POST',
      url: '/admin/articles/flush-view-counts',
      headers: admin,
    });
    expect(flush.json()).toEqual({ articles: 0, views: 0 });
    expect((await list('sort=view_count&order=desc'))[0]).toMatchObject({ id: target.id, view_count: 3 });
  });

  it('counts each view once when the periodic flush runs before the quick one', async () => {
    const target = articles[1]!;
    await view(target.id, '10.3.0.1');
    await view(target.id, '10.3.0.2');
    // the periodic flush takes the counter first; the quick flush that follows finds it gone
    const flush = await t.app.inject({
      method: 'POST',
      url: '/admin/articles/flush-view-counts',
      headers: admin,
    });
    expect(flush.json()).toEqual({ articles: 1, views: 2 });
    await view(target.id, '10.3.0.3');
    expect((await list('sort=scraped_at')).find((a) => a.id === target.id)!.view_count).toBe(3);
    await expect.poll(() => stored(target.id), { timeout: 10_000, interval: 100 }).toBe(3);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await stored(target.id)).toBe(3);
    expect(
      (await t.app.inject({ url: `/articles/${target.id}` })).json<{ view_count: number }>().view_count,
    ).toBe(3);
  });
});
