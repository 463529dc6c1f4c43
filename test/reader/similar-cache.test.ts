import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic, type ArticleRow } from '../helpers/article-factories.js';
import { EmbeddingPeer } from '../peers/embedding-peer.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';

type Similar = { items: { id: string }[] };
const at = (i: number) => new Date(Date.UTC(2026, 0, 3, 0, i));

/** Issue 24: similar articles kept per article until the topic gets a new article. */
describe.each(dbKinds())('similar articles, kept (%s)', (kind) => {
  let t: TestApp;
  let topic: string;
  let first: ArticleRow;
  const similar = async (id: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/articles/${id}/similar` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Similar>().items.map((i) => i.id);
  };
  const storedVectors = async () =>
    Number(
      rowsOf<{ n: number }>(
        await t.container.database.db.execute(sql`select count(*)::int as n from article_embeddings`),
      )[0]!.n,
    );

  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    const db = t.container.database.db;
    topic = (await makeTopic(db)).id;
    const subjects = ['protein folding', 'storm rainfall', 'graph networks', 'protein structure'];
    const rows = [];
    for (let i = 0; i < subjects.length; i++)
      rows.push(
        await makeArticle(db, {
          topicId: topic,
          title: `Notes on ${subjects[i]}`,
          summary: `A study of ${subjects[i]} and related ${subjects[i]} methods.`,
          scrapedAt: at(i),
        }),
      );
    first = rows[0]!;
  });
  afterAll(() => t?.close());

  it('answers a second call from what it kept, and anew once the topic has a new article', async () => {
    const before = await similar(first.id);
    expect(before.length).toBeGreaterThan(0);
    expect(await storedVectors()).toBe(4);
    // the stored vectors go away: an answer computed again would have to embed them again
    await t.container.database.db.execute(sql`delete from article_embeddings`);
    expect(await similar(first.id)).toEqual(before);
    expect(await storedVectors()).toBe(0);

    // a new article of the topic, the first one's twin: it leads the next answer
    const twin = await makeArticle(t.container.database.db, {
      topicId: topic,
      title: first.title,
      summary: first.summary,
      scrapedAt: at(30),
    });
    const after = await similar(first.id);
    expect(after[0]).toBe(twin.id);
    // only the new article was embedded: the rest of the window was kept in memory
    expect(await storedVectors()).toBe(1);
  });
});

describe('similar articles with an embedding endpoint', () => {
  let t: TestApp;
  let peer: EmbeddingPeer;
  let articles: ArticleRow[];

  beforeAll(async () => {
    peer = await new EmbeddingPeer(8).start();
    t = await buildTestApp({ env: { EMBEDDING_URL: peer.url, EMBEDDING_DIMENSION: '8' } });
    const db = t.container.database.db;
    const topicId = (await makeTopic(db)).id;
    articles = [];
    for (let i = 0; i < 4; i++)
      articles.push(
        await makeArticle(db, { topicId, title: `Same length title ${i}`, summary: 'x', scrapedAt: at(i) }),
      );
  });
  afterAll(async () => {
    await t?.close();
    await peer?.stop();
  });

  it('never calls the provider for a guest; a signed-in reader fills the vectors for everyone', async () => {
    const get = (headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: `/articles/${articles[0]!.id}/similar`, headers });
    const guest = await get();
    expect(guest.statusCode).toBe(200);
    expect(guest.json<Similar>().items).toEqual([]);
    expect(peer.requests).toHaveLength(0);

    const reader = await get((await t.login('user')).headers);
    expect(reader.json<Similar>().items.length).toBe(3);
    const calls = peer.requests.length;
    expect(calls).toBeGreaterThan(0);

    // the guest now gets the same answer, and still causes no call
    expect((await get()).json<Similar>().items.map((i) => i.id)).toEqual(
      reader.json<Similar>().items.map((i) => i.id),
    );
    expect(peer.requests).toHaveLength(calls);
  });
});
