import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, switchMetric, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import {
  DrizzleArticleRepository,
  ESTIMATE_TTL_MS,
} from '../../src/infrastructure/db/repositories/article.repository.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import {
  makeArticle,
  makeMetricDefinition,
  makeTopic,
  setMetric,
  setViewCount,
  tagArticle,
  type ArticleRow,
} from '../helpers/article-factories.js';

interface Item {
  id: string;
  title: string;
  metrics: Record<string, number>;
  view_count: number;
  is_favorited: boolean;
  tags: string[];
}
interface Page {
  items: Item[];
  total: number;
  limit: number;
  offset: number;
}

const byId = (dir: 'asc' | 'desc') => (a: string, b: string) =>
  dir === 'asc' ? (a < b ? -1 : 1) : a < b ? 1 : -1;

/** the order the API promises: value in the given direction, ties by id, rows without a value last */
function expected(rows: { id: string; v: number | null }[], dir: 'asc' | 'desc'): string[] {
  const cmp = byId(dir);
  const valued = rows
    .filter((r) => r.v !== null)
    .sort((a, b) => (a.v === b.v ? cmp(a.id, b.id) : dir === 'asc' ? a.v! - b.v! : b.v! - a.v!));
  const empty = rows.filter((r) => r.v === null).sort((a, b) => cmp(a.id, b.id));
  return [...valued, ...empty].map((r) => r.id);
}

describe.each(dbKinds())('GET /articles on %s', (kind) => {
  let t: TestApp;
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>();
  };
  let topicA: string;
  let topicB: string;
  let a: ArticleRow[];
  // citation_count per article of topic A: two ties, a 0, a stored null and a missing row
  const citations = [5, 10, 10, 0, null, undefined, 3, 10];
  const views = [3, null, 3, 7, null, 0, null, 12];

  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    const db = t.container.database.db;
    topicA = (await makeTopic(db)).id;
    topicB = (await makeTopic(db)).id;
    a = [];
    for (let i = 0; i < citations.length; i++) {
      const row = await makeArticle(db, {
        topicId: topicA,
        title: `Alpha ${i}`,
        source: i % 2 ? 'Nature' : 'Cell',
        publishedAt: i === 2 ? null : new Date(Date.UTC(2026, 0, 1 + i)),
        scrapedAt: new Date(Date.UTC(2026, 1, 1, 0, i)),
      });
      const c = citations[i];
      if (c !== undefined) await setMetric(db, row.id, 'citation_count', c);
      await setViewCount(db, row.id, views[i]!);
      a.push(row);
    }
    for (let i = 0; i < 30; i++) {
      const row = await makeArticle(db, {
        topicId: topicB,
        title: i % 3 === 0 ? `Quantum 100% Sensors ${i}` : `Beta ${i}`,
        source: i % 2 ? 'Science' : 'Cell',
        scrapedAt: new Date(Date.UTC(2026, 2, 1, 0, i)),
      });
      if (i % 4 !== 0) await setMetric(db, row.id, 'citation_count', i % 5);
      if (i % 2 === 0) await tagArticle(db, row, ['robotics']);
      if (i % 3 === 0) await tagArticle(db, row, ['quantum']);
    }
  });
  afterAll(() => t.close());

  it.each(['desc', 'asc'] as const)(
    'sorts by citation_count %s with rows without a value last and ties broken by id',
    async (dir) => {
      const page = await get(`/articles?topic_id=${topicA}&sort=citation_count&order=${dir}&limit=100`);
      const rows = a.map((r, i) => ({ id: r.id, v: citations[i] ?? null }));
      expect(page.items.map((x) => x.id)).toEqual(expected(rows, dir));
      expect(page.items.slice(-2).every((x) => !('citation_count' in x.metrics))).toBe(true);
      expect(page.total).toBe(citations.length);
    },
  );

  it.each(['desc', 'asc'] as const)(
    'sorts by view_count %s with never-viewed rows last (shown as 0)',
    async (dir) => {
      const page = await get(`/articles?topic_id=${topicA}&sort=view_count&order=${dir}`);
      const rows = a.map((r, i) => ({ id: r.id, v: views[i]! }));
      expect(page.items.map((x) => x.id)).toEqual(expected(rows, dir));
      expect(page.items.slice(-3).map((x) => x.view_count)).toEqual([0, 0, 0]);
    },
  );

  it('sorts by published_at, title, source and scraped_at (the default, desc)', async () => {
    const pub = await get(`/articles?topic_id=${topicA}&sort=published_at&order=asc`);
    expect(pub.items.at(-1)!.id).toBe(a[2]!.id); // the one without a date
    expect(pub.items[0]!.id).toBe(a[0]!.id);
    const def = await get(`/articles?topic_id=${topicA}`);
    expect(def.items.map((x) => x.id)).toEqual([...a].reverse().map((r) => r.id));
    const title = await get(`/articles?topic_id=${topicA}&sort=title&order=asc`);
    expect(title.items.map((x) => x.title)).toEqual(a.map((r) => r.title));
    const source = await get(`/articles?topic_id=${topicA}&sort=source&order=asc&limit=4`);
    expect(new Set(source.items.map((x) => x.id))).toEqual(
      new Set(a.filter((_, i) => i % 2 === 0).map((r) => r.id)), // "Cell" < "Nature"
    );
  });

  it('keeps filters, sort and pagination together, with the total of all matches', async () => {
    const full = await get(`/articles?topic_id=${topicB}&sort=citation_count&order=asc&limit=100`);
    expect(full.total).toBe(30);
    const paged: string[] = [];
    for (let offset = 0; offset < 30; offset += 7) {
      const p = await get(
        `/articles?topic_id=${topicB}&sort=citation_count&order=asc&limit=7&offset=${offset}`,
      );
      expect(p).toMatchObject({ total: 30, limit: 7, offset });
      paged.push(...p.items.map((x) => x.id));
    }
    expect(paged).toEqual(full.items.map((x) => x.id));
    // 8 of 30 have no value: they are the last ones
    expect(full.items.slice(-8).every((x) => x.metrics.citation_count === undefined)).toBe(true);

    const tagged = await get(
      `/articles?topic_id=${topicB}&tag=robotics&sort=citation_count&order=desc&limit=5`,
    );
    expect(tagged.total).toBe(15);
    expect(tagged.items).toHaveLength(5);
    expect(tagged.items.every((x) => x.tags.includes('robotics'))).toBe(true);
    const values = tagged.items.map((x) => x.metrics.citation_count ?? -1);
    expect(values).toEqual([...values].sort((x, y) => y - x));

    const q = await get(`/articles?q=quantum%20100%25&source=Cell&sort=title&order=asc`);
    expect(q.items.map((x) => x.title)).toEqual([
      'Quantum 100% Sensors 0',
      'Quantum 100% Sensors 12',
      'Quantum 100% Sensors 18',
      'Quantum 100% Sensors 24',
      'Quantum 100% Sensors 6',
    ]);
    expect(q.total).toBe(5);
    const none = await get(`/articles?q=${encodeURIComponent('%_')}`);
    expect(none.total).toBe(0);
    const other = await get(`/articles?topic_id=${topicA}&tag=robotics`);
    expect(other).toMatchObject({ items: [], total: 0 });
  });

  it('favorites_only narrows a user to their favorites and is ignored for a guest', async () => {
    const u = await t.login();
    for (const r of [a[1]!, a[6]!])
      expect(
        (await t.app.inject({ method: 'POST', url: `/user/favorites/${r.id}`, headers: u.headers }))
          .statusCode,
      ).toBe(201);
    const mine = await get(`/articles?favorites_only=true&sort=view_count&order=desc`, u.headers);
    expect(mine.total).toBe(2);
    expect(mine.items.map((x) => x.id).sort()).toEqual([a[1]!.id, a[6]!.id].sort());
    expect(mine.items.every((x) => x.is_favorited)).toBe(true);
    const all = await get(`/articles?topic_id=${topicA}&limit=100`, u.headers);
    expect(
      all.items
        .filter((x) => x.is_favorited)
        .map((x) => x.id)
        .sort(),
    ).toEqual([a[1]!.id, a[6]!.id].sort());
    const guest = await get(`/articles?favorites_only=true&topic_id=${topicA}`);
    expect(guest.total).toBe(citations.length);
    expect(guest.items.some((x) => x.is_favorited)).toBe(false);
  });

  it('refuses unknown and disabled sort keys, and shows only enabled metrics', async () => {
    const db = t.container.database.db;
    const bad = await t.app.inject({ method: 'GET', url: '/articles?sort=nope' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.code).toBe('validation_error');
    expect((await t.app.inject({ method: 'GET', url: '/articles?order=up' })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/articles?limit=101' })).statusCode).toBe(422);

    const stars = await makeMetricDefinition(db, { metricKey: 'github_stars' });
    await setMetric(db, a[0]!.id, stars.metricKey, 42);
    await setMetric(db, a[3]!.id, stars.metricKey, 7);
    const sorted = await get(`/articles?topic_id=${topicA}&sort=github_stars&order=asc&limit=3`);
    expect(sorted.items.map((x) => x.metrics.github_stars)).toEqual([7, 42, undefined]);

    await switchMetric(t, 'github_stars', false);
    await switchMetric(t, 'citation_count', false);
    try {
      expect((await t.app.inject({ method: 'GET', url: '/articles?sort=citation_count' })).statusCode).toBe(
        422,
      );
      expect((await t.app.inject({ method: 'GET', url: '/articles?sort=github_stars' })).statusCode).toBe(
        422,
      );
      const page = await get(`/articles?topic_id=${topicA}&limit=100`);
      expect(page.items.every((x) => Object.keys(x.metrics).length === 0)).toBe(true);
      const detail = (await t.app.inject({ method: 'GET', url: `/articles/${a[0]!.id}` })).json();
      expect(detail.metrics).toEqual({});
    } finally {
      await switchMetric(t, 'citation_count', true);
    }
  });

  it('GET /articles/{id} returns the detail with content, author and translations', async () => {
    const db = t.container.database.db;
    const row = await makeArticle(db, {
      topicId: topicA,
      title: 'Detailed',
      author: 'Ada Lovelace',
      content: 'Full text',
      doi: '10.1000/xyz',
      translations: { 'zh-TW': { title: '詳細', summary: '摘要' } },
    });
    await setMetric(db, row.id, 'citation_count', 9);
    await tagArticle(db, row, ['b-tag', 'a-tag']);
    const res = await t.app.inject({ method: 'GET', url: `/articles/${row.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: row.id,
      topic_id: topicA,
      title: 'Detailed',
      author: 'Ada Lovelace',
      content: 'Full text',
      doi: '10.1000/xyz',
      arxiv_id: null,
      tags: ['a-tag', 'b-tag'],
      metrics: { citation_count: 9 },
      view_count: 0,
      is_favorited: false,
      translations: { 'zh-TW': { title: '詳細', summary: '摘要' } },
    });
    const missing = await t.app.inject({
      method: 'GET',
      url: '/articles/00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/articles/not-a-uuid' })).statusCode).toBe(422);
  });
});

describe.each(dbKinds())('GET /articles total above the exact-count cap on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    const db = t.container.database.db;
    const topic = await makeTopic(db);
    await db.execute(sql`
      insert into articles (topic_id, source, url, canonical_url, title, normalized_title)
      select ${topic.id}, 'Bulk', 'https://bulk.example.test/' || g, 'https://bulk.example.test/' || g,
             'Bulk ' || g, 'bulk ' || g
      from generate_series(1, 12000) g`);
    await db.execute(sql`analyze articles`);
  });
  afterAll(() => t.close());

  it('is exact up to 10,000 matches and the planner estimate beyond', async () => {
    const all = (await t.app.inject({ method: 'GET', url: '/articles?limit=5' })).json<Page>();
    expect(all.items).toHaveLength(5);
    expect(all.total).toBeGreaterThan(10_000);
    expect(Math.abs(all.total - 12_000)).toBeLessThan(1_200);
    const few = (await t.app.inject({ method: 'GET', url: '/articles?q=bulk%20119' })).json<Page>();
    expect(few.total).toBe(111); // 119, 1190..1199 and 11900..11999
  });

  it('keeps the estimate of a large filter for a minute; small filters are counted every time', async () => {
    const db = t.container.database.db;
    let now = 1_000_000;
    const repo = new DrizzleArticleRepository(db, () => now);
    const query = (q?: string) => ({
      filter: { ...(q ? { q } : {}) },
      sort: { kind: 'column' as const, column: 'scraped_at' as const },
      order: 'desc' as const,
      limit: 1,
      offset: 0,
      viewerId: null,
    });
    const first = (await repo.list(query())).total;
    expect(first).toBeGreaterThan(10_000);
    const [topic] = rowsOf<{ id: string }>(await db.execute(sql`select id from topics limit 1`));
    await db.execute(sql`
      insert into articles (topic_id, source, url, canonical_url, title, normalized_title)
      select ${topic!.id}, 'Bulk', 'https://more.example.test/' || g, 'https://more.example.test/' || g,
             'More ' || g, 'more ' || g
      from generate_series(1, 6000) g`);
    await db.execute(sql`analyze articles`);
    // within the minute: the same estimate, no count
    now += ESTIMATE_TTL_MS - 1;
    expect((await repo.list(query())).total).toBe(first);
    // a small filter is exact at once
    // words match as prefixes and "more" is an English stop word, so this is "599*": 599 and
    // 5990..5999 of both the More and the Bulk articles
    expect((await repo.list(query('more 599'))).total).toBe(22);
    now += 2;
    const later = (await repo.list(query())).total;
    expect(Math.abs(later - 18_000)).toBeLessThan(1_800);
  });
});
