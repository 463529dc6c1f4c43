import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cacheKinds, dbKinds } from '../helpers/db.js';
import { makeArticles, makeTopic, type ArticleRow } from '../helpers/article-factories.js';

const combos = dbKinds().flatMap((db) => cacheKinds().map((cache) => [db, cache] as const));

describe.each(combos)('view counting on %s with the %s cache', (db, cache) => {
  let t: TestApp;
  let admin: { authorization: string };
  let articles: ArticleRow[];
  beforeAll(async () => {
    // these tests count what each flush takes: no quick flush of recent views takes any first
    t = await buildTestApp({ db, cache, env: { VIEW_COUNT_RECENT_FLUSH_SECONDS: '0' } });
    admin = (await t.login('admin')).headers;
    const topic = await makeTopic(t.container.database.db);
    articles = await makeArticles(t.container.database.db, 10, () => ({ topicId: topic.id }));
  });
  afterAll(() => t.close());

  const view = (id: string, ip: string) =>
    t.app.inject({ method: 'POST', url: `/articles/${id}/view`, headers: { 'x-forwarded-for': ip } });
  const stored = async (id: string) =>
    (await t.app.inject({ method: 'GET', url: `/articles/${id}` })).json().view_count;
  const adminFlush = () =>
    t.app.inject({ method: 'POST', url: '/admin/articles/flush-view-counts', headers: admin });

  it('counts 1,000 concurrent views from 100 IPs exactly while flushes race them', async () => {
    const requests: [string, string][] = [];
    for (let ip = 0; ip < 100; ip++)
      for (const a of articles) {
        requests.push([a.id, `10.1.${ip}.7`]);
        if (ip % 5 === 0) requests.push([a.id, `10.1.${ip}.7`]); // repeats within 24 h: not counted
      }
    requests.sort(() => Math.random() - 0.5);

    // ten waves of concurrent views; a flush (admin route or service, alternately) runs inside each
    // wave, taking counters while that wave's views increment them
    const answers: { statusCode: number }[] = [];
    let flushed = 0;
    const wave = Math.ceil(requests.length / 10);
    for (let w = 0; w < 10; w++) {
      const views = requests.slice(w * wave, (w + 1) * wave).map(([id, ip]) => view(id, ip));
      const flush = new Promise((resolve) => setImmediate(resolve)).then(async () => {
        if (w % 2 === 0) return t.container.services.views.flush();
        const res = await adminFlush();
        expect(res.statusCode).toBe(200);
        return res.json<{ views: number }>();
      });
      const [done, f] = await Promise.all([Promise.all(views), flush]);
      answers.push(...done);
      flushed += f.views;
    }
    expect(answers.every((r) => r.statusCode === 204)).toBe(true);
    expect(flushed).toBeGreaterThan(0); // the flushes really took counters while views came in

    const last = await adminFlush();
    expect(last.statusCode).toBe(200);
    flushed += last.json<{ views: number }>().views;
    expect(flushed).toBe(1000);
    for (const a of articles) expect(await stored(a.id)).toBe(100);
    // nothing left behind for a later flush
    expect((await adminFlush()).json()).toEqual({ articles: 0, views: 0 });

    // the same IP again within 24 h: 204, not counted; a new IP is
    expect((await view(articles[0]!.id, '10.1.3.7')).statusCode).toBe(204);
    expect((await view(articles[0]!.id, '10.9.9.9')).statusCode).toBe(204);
    expect((await adminFlush()).json()).toEqual({ articles: 1, views: 1 });
    expect(await stored(articles[0]!.id)).toBe(101);
  });

  it('uses the exact cache keys, with a 24 h dedup window', async () => {
    const id = articles[1]!.id;
    await view(id, '192.0.2.44');
    await view(id, '192.0.2.45');
    const c = t.container.cache;
    expect(await c.get(`view:${id}`)).toBe('2');
    const ttl = await c.ttl(`viewed:192.0.2.44:${id}`);
    expect(ttl).toBeGreaterThan(86_300);
    expect(ttl).toBeLessThanOrEqual(86_400);
    await adminFlush();
    expect(await c.get(`view:${id}`)).toBeNull();
  });

  it('answers 204 for an unknown article without counting it, 422 for a malformed id', async () => {
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    expect((await view(unknown, '192.0.2.1')).statusCode).toBe(204);
    expect(await t.container.cache.get(`view:${unknown}`)).toBeNull();
    expect((await view('not-an-id', '192.0.2.1')).statusCode).toBe(422);
  });

  it('puts the counts back when the database write fails, and applies them on the next flush', async () => {
    const database = t.container.database.db;
    const [a, b] = [articles[2]!, articles[3]!];
    const before = [await stored(a.id), await stored(b.id)];
    for (let i = 0; i < 3; i++) await view(a.id, `198.51.100.${i}`);
    await view(b.id, '198.51.100.1');
    // the write fails for real: the column it adds to is gone
    await database.execute(sql`alter table article_view_counts rename column view_count to view_count_away`);
    try {
      const failed = await adminFlush();
      expect(failed.statusCode).toBe(500);
      // a view arriving after the failure adds to the restored counter
      await view(a.id, '198.51.100.99');
      expect(await t.container.cache.get(`view:${a.id}`)).toBe('4');
      expect(await t.container.cache.get(`view:${b.id}`)).toBe('1');
    } finally {
      await database.execute(
        sql`alter table article_view_counts rename column view_count_away to view_count`,
      );
    }
    expect((await adminFlush()).json()).toEqual({ articles: 2, views: 5 });
    expect([await stored(a.id), await stored(b.id)]).toEqual([before[0] + 4, before[1] + 1]);
  });

  it('flushes once more when the worker stops', async () => {
    const worker = t.container.workers.find((w) => w.name === 'view-count-flush')!;
    const id = articles[4]!.id;
    const before = await stored(id);
    worker.start();
    await view(id, '203.0.113.5');
    await worker.stop();
    expect(await stored(id)).toBe(before + 1);
  });

  it('keeps the admin flush to admins', async () => {
    const user = await t.login();
    const url = '/admin/articles/flush-view-counts';
    expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url, headers: user.headers })).statusCode).toBe(403);
  });
});

describe('the periodic flush', () => {
  it('runs every VIEW_COUNT_FLUSH_INTERVAL seconds', async () => {
    const t = await buildTestApp({
      env: { VIEW_COUNT_FLUSH_INTERVAL: '1', VIEW_COUNT_RECENT_FLUSH_SECONDS: '0' },
    });
    const worker = t.container.workers.find((w) => w.name === 'view-count-flush')!;
    try {
      const [a] = await makeArticles(t.container.database.db, 1);
      worker.start();
      await t.app.inject({ method: 'POST', url: `/articles/${a!.id}/view` });
      await expect
        .poll(
          async () => (await t.app.inject({ method: 'GET', url: `/articles/${a!.id}` })).json().view_count,
          {
            timeout: 3000,
            interval: 100,
          },
        )
        .toBe(1);
    } finally {
      await worker.stop();
      await t.close();
    }
  });
});

describe.each(dbKinds())('a flush of more counters than one write batch on %s', (db) => {
  // 10,500 rows and counters: seconds on a quiet machine, far more under a full suite's load
  it('adds every counter exactly once, writing batches side by side', async () => {
    const t = await buildTestApp({ db });
    try {
      const database = t.container.database.db;
      const topic = await makeTopic(database);
      const ids = rowsOf<{ id: string }>(
        await database.execute(sql`
          insert into articles (topic_id, source, url, canonical_url, title, normalized_title)
          select ${topic.id}, 'Bulk', 'https://bulk.example.test/' || g, 'https://bulk.example.test/' || g,
                 'Bulk ' || g, 'bulk ' || g
          from generate_series(1, 10500) g returning id`),
      ).map((r) => r.id);
      const cache = t.container.cache;
      await Promise.all(ids.map((id, i) => cache.incrBy(`view:${id}`, 1 + (i % 3))));
      const expected = ids.reduce((s, _, i) => s + 1 + (i % 3), 0);
      expect(await t.container.services.views.flush()).toEqual({ articles: 10500, views: expected });
      const [sum] = rowsOf<{ s: string; n: string }>(
        await database.execute(
          sql`select sum(view_count)::bigint as s, count(*)::int as n from article_view_counts`,
        ),
      );
      expect([Number(sum!.s), Number(sum!.n)]).toEqual([expected, 10500]);
    } finally {
      await t.close();
    }
  }, 120_000);
});
