import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeSource, makeTopic, setMetric, setViewCount } from '../helpers/article-factories.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';

interface Page {
  items: {
    id: string;
    topic_id: string;
    source: string;
    view_count: number;
    metrics: Record<string, number>;
  }[];
  total: number;
}

/**
 * An article carried by the sources of two topics is one row listed under both: every sort keeps
 * it in the second topic's list, with the same views and metrics, and its `topic_id` stays the
 * primary one.
 */
describe.each(dbKinds())('GET /articles?topic_id= with articles in several topics (%s)', (kind) => {
  let t: TestApp;
  let primary: string;
  let second: string;
  const own: string[] = [];
  const shared: string[] = [];
  const get = async (url: string) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>();
  };

  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    const db = t.container.database.db;
    primary = (await makeTopic(db)).id;
    second = (await makeTopic(db)).id;
    for (let i = 0; i < 6; i++) {
      const a = await makeArticle(db, {
        topicId: primary,
        publishedAt: i % 3 ? new Date(Date.UTC(2026, 10, 1 + i)) : null,
      });
      (i % 2 ? shared : own).push(a.id);
      if (i % 2) await setMetric(db, a.id, 'citation_count', 10 * i);
      if (i > 2) await setViewCount(db, a.id, i);
    }
    const secondOnly = await makeArticle(db, { topicId: second });
    own.push(secondOnly.id);
    for (const id of shared)
      await db.execute(sql`insert into article_topics (article_id, topic_id) values (${id}, ${second})`);
  });
  afterAll(() => t.close());

  it('lists the shared articles in the second topic under every sort and direction, with exact totals', async () => {
    const secondOnly = own[own.length - 1]!;
    const expected = [...shared, secondOnly].sort();
    for (const sort of ['scraped_at', 'published_at', 'title', 'source', 'citation_count', 'view_count'])
      for (const order of ['asc', 'desc']) {
        const page = await get(`/articles?topic_id=${second}&sort=${sort}&order=${order}&limit=100`);
        expect(page.items.map((i) => i.id).sort(), `${sort} ${order}`).toEqual(expected);
        expect(page.total).toBe(4);
      }
    const first = await get(`/articles?topic_id=${primary}&limit=100`);
    expect(first.total).toBe(6);
    expect(first.items.map((i) => i.id)).not.toContain(secondOnly);
  });

  it('shows one article with its primary topic and the same views and metrics in both lists', async () => {
    const find = async (topicId: string) =>
      (await get(`/articles?topic_id=${topicId}&sort=citation_count&limit=100`)).items.find(
        (i) => i.id === shared[2],
      );
    const inPrimary = await find(primary);
    const inSecond = await find(second);
    expect(inPrimary).toEqual(inSecond);
    expect(inSecond).toMatchObject({ topic_id: primary, view_count: 5, metrics: { citation_count: 50 } });
  });

  it('drops the link, not the article, when the second topic is deleted', async () => {
    const gone = (await makeTopic(t.container.database.db)).id;
    await t.container.database.db.execute(
      sql`insert into article_topics (article_id, topic_id) values (${shared[0]!}, ${gone})`,
    );
    expect((await get(`/articles?topic_id=${gone}`)).total).toBe(1);
    await t.container.database.db.execute(sql`delete from topics where id = ${gone}`);
    expect((await get(`/articles?topic_id=${gone}`)).total).toBe(0);
    expect((await get(`/articles?topic_id=${primary}&limit=100`)).items.map((i) => i.id)).toContain(
      shared[0],
    );
  });

  it('keeps the shared articles under the second topic when their primary topic is deleted', async () => {
    const db = t.container.database.db;
    const secondSource = await makeSource(db, { topicId: second, name: 'Second source' });
    await db.execute(
      sql`update article_topics set source_id = ${secondSource.id} where topic_id = ${second} and article_id = ${shared[1]!}`,
    );
    await db.execute(sql`delete from topics where id = ${primary}`);
    const page = await get(`/articles?topic_id=${second}&limit=100`);
    expect(page.items.map((i) => i.id).sort()).toEqual([...shared, own[own.length - 1]!].sort());
    for (const item of page.items) expect(item.topic_id).toBe(second);
    expect(page.items.find((i) => i.id === shared[1])).toMatchObject({ source: 'Second source' });
    const left = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from articles where id in (${sql.join(
          own.slice(0, -1).map((id) => sql`${id}`),
          sql`, `,
        )})`,
      ),
    );
    expect(left[0]!.n).toBe(0);
  });
});
