import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic, type ArticleRow } from '../helpers/article-factories.js';
import { WorkLinker } from '../../src/application/works/work-linker.service.js';
import { DrizzleWorkStore } from '../../src/infrastructure/db/repositories/work.repository.js';

const silent = pino({ level: 'silent' });

interface Item {
  id: string;
  is_read: boolean;
  is_favorited: boolean;
  work: { id: string; versions: number };
}

describe.each(dbKinds())('read and favorite marks of a work (%s)', (db) => {
  let t: TestApp;
  let topicId: string;
  let preprint: ArticleRow;
  let published: ArticleRow;
  let lone: ArticleRow;
  let reader: { headers: { authorization: string } };
  let other: { headers: { authorization: string } };
  const day = (n: number) => new Date(Date.UTC(2026, 1, n));
  const list = async (query: string, headers: Record<string, string>) => {
    const res = await t.app.inject({ url: `/articles?topic_id=${topicId}&${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ items: Item[]; total: number }>().items;
  };
  const send = async (method: 'PUT' | 'DELETE' | 'POST', url: string, headers: Record<string, string>) => {
    const res = await t.app.inject({ method, url, headers });
    expect(res.statusCode, res.body).toBeLessThan(300);
  };
  const linker = () =>
    new WorkLinker(new DrizzleWorkStore(t.container.database.db), t.container.clock, silent);

  beforeAll(async () => {
    t = await buildTestApp({ db });
    const d = t.container.database.db;
    topicId = (await makeTopic(d)).id;
    preprint = await makeArticle(d, {
      topicId,
      title: 'Preprint of a result',
      arxivId: '2402.00002',
      publishedAt: day(1),
      scrapedAt: day(1),
    });
    published = await makeArticle(d, {
      topicId,
      title: 'Published result',
      doi: '10.1000/marks.2026.2',
      publishedAt: day(4),
      scrapedAt: day(4),
    });
    lone = await makeArticle(d, { topicId, title: 'Alone', publishedAt: day(2), scrapedAt: day(2) });
    await linker().recordLinks([
      { from: 'doi:10.1000/marks.2026.2', to: 'arxiv:2402.00002', evidence: 'crossref:has-preprint' },
    ]);
    await linker().linkArticles([preprint.id, published.id, lone.id]);
    reader = await t.login('user');
    other = await t.login('user');
  });
  afterAll(() => t.close());

  it('reading the preprint marks the work read in the collapsed list, and unread takes it back', async () => {
    const h = reader.headers;
    const before = await list('collapse=work&sort=published_at&order=asc', h);
    expect(before.map((i) => [i.id, i.is_read])).toEqual([
      [lone.id, false],
      [published.id, false],
    ]);
    expect(before[1]!.work.versions).toBe(2);

    await send('PUT', `/articles/${preprint.id}/read`, h);
    const after = await list('collapse=work&sort=published_at&order=asc', h);
    expect(after.map((i) => [i.id, i.is_read])).toEqual([
      [lone.id, false],
      [published.id, true],
    ]);
    // the whole list agrees: both versions are read, and unread_only no longer shows the work
    const all = await list('sort=published_at&order=asc', h);
    expect(all.filter((i) => i.is_read).map((i) => i.id)).toEqual([preprint.id, published.id]);
    expect((await list('collapse=work&unread_only=true', h)).map((i) => i.id)).toEqual([lone.id]);
    // another reader's marks are their own
    expect((await list('collapse=work', other.headers)).every((i) => !i.is_read)).toBe(true);

    // marking the head unread makes the whole work unread again
    await send('DELETE', `/articles/${published.id}/read`, h);
    expect((await list('sort=published_at&order=asc', h)).every((i) => !i.is_read)).toBe(true);
  });

  it('favoriting one version favorites the work; removing it from any version removes it', async () => {
    const h = reader.headers;
    await send('POST', `/user/favorites/${preprint.id}`, h);
    const collapsed = await list('collapse=work&favorites_only=true', h);
    expect(collapsed.map((i) => [i.id, i.is_favorited])).toEqual([[published.id, true]]);
    const favs = (await t.app.inject({ url: '/user/favorites', headers: h })).json<{
      article_ids: string[];
    }>();
    expect(favs.article_ids.sort()).toEqual([preprint.id, published.id].sort());

    await send('DELETE', `/user/favorites/${published.id}`, h);
    expect(await list('favorites_only=true', h)).toEqual([]);
    // an unknown article is still 404, whatever work it might have had
    const missing = await t.app.inject({
      method: 'PUT',
      url: '/articles/00000000-0000-4000-8000-000000000000/read',
      headers: h,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('a version joining a work later takes the marks its other versions carry', async () => {
    const h = reader.headers;
    const d = t.container.database.db;
    await send('PUT', `/articles/${published.id}/read`, h);
    await send('POST', `/user/favorites/${published.id}`, h);
    // a second preprint version turns up (its arXiv DOI in a feed) after the reader's marks
    const late = await makeArticle(d, {
      topicId,
      title: 'Preprint, as listed elsewhere',
      doi: '10.48550/arXiv.2402.00002',
      publishedAt: day(5),
      scrapedAt: day(5),
    });
    const fresh = (await list('sort=published_at&order=asc', h)).find((i) => i.id === late.id)!;
    expect([fresh.is_read, fresh.is_favorited]).toEqual([false, false]);
    await linker().linkArticles([late.id]);
    const joined = (await list('sort=published_at&order=asc', h)).find((i) => i.id === late.id)!;
    expect(joined.work.versions).toBe(3);
    expect([joined.is_read, joined.is_favorited]).toEqual([true, true]);
    // nobody else gains marks they never made
    const others = (await list('sort=published_at&order=asc', other.headers)).find((i) => i.id === late.id)!;
    expect([others.is_read, others.is_favorited]).toEqual([false, false]);
  });
});
