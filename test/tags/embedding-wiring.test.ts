import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase, dbKinds } from '../helpers/db.js';
import { makeTopic } from '../helpers/article-factories.js';
import { EmbeddingPeer, peerDense } from '../peers/embedding-peer.js';
import { sendJson } from '../peers/http-peer.js';
import { systemSettings, tagGroups } from '../../src/infrastructure/db/schema/index.js';
import type { Database } from '../../src/infrastructure/db/client.js';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

describe.each(dbKinds())('embedding wiring (%s)', (kind) => {
  async function database(): Promise<Database> {
    const d = await createTestDatabase(kind);
    closers.push(() => d.close());
    return d;
  }
  async function app(db: Database, env: Record<string, string> = {}): Promise<TestApp> {
    const t = await buildTestApp({ database: db, env });
    closers.push(() => t.close());
    return t;
  }

  it('records the dense dimension at first start; a later start with another one is refused', async () => {
    const db = await database();
    await app(db, { EMBEDDING_DIMENSION: '256' });
    const [row] = await db.db
      .select()
      .from(systemSettings)
      .where(eq(systemSettings.key, 'embedding.dense_dimension'));
    expect(row!.value).toBe('256');
    await app(db, { EMBEDDING_DIMENSION: '256' }); // the same width starts fine
    await expect(app(db, { EMBEDDING_DIMENSION: '128' })).rejects.toThrow(
      /embedding dimension mismatch.*256.*128/s,
    );
  });

  it('with EMBEDDING_URL, group embeddings come from the endpoint (with its Bearer key)', async () => {
    const peer = await new EmbeddingPeer(8).start();
    closers.push(() => peer.stop());
    const db = await database();
    const t = await app(db, {
      EMBEDDING_URL: peer.url,
      EMBEDDING_DIMENSION: '8',
      EMBEDDING_API_KEY: 'embed-secret',
    });
    const admin = await t.login('admin');
    const topic = await makeTopic(db.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/tag-groups',
      headers: admin.headers,
      payload: { topic_id: topic.id, name: 'vision', display_name: 'computer vision' },
    });
    expect(res.statusCode).toBe(201);
    expect(peer.requests.map((r) => r.json())).toEqual([{ texts: ['Computer Vision'] }]);
    expect(peer.requests[0]!.headers.authorization).toBe('Bearer embed-secret');
    const [row] = await db.db.select().from(tagGroups).where(eq(tagGroups.id, res.json().id));
    expect(row!.embedding!.map((x) => Math.round(x * 1e5))).toEqual(
      peerDense('Computer Vision', 8).map((x) => Math.round(x * 1e5)),
    );

    // the endpoint failing with a status: 502 at once (one request), nothing created
    peer.setHandler((_req, r) => sendJson(r, 500, { detail: 'down' }));
    const before = peer.requests.length;
    const failed = await t.app.inject({
      method: 'POST',
      url: '/tag-groups',
      headers: admin.headers,
      payload: { topic_id: topic.id, name: 'nlp', display_name: 'NLP' },
    });
    expect(failed.statusCode).toBe(502);
    expect(peer.requests.length - before).toBe(1);
    expect(await db.db.select().from(tagGroups).where(eq(tagGroups.topicId, topic.id))).toHaveLength(1);
  });

  it('with a sparse endpoint, group embeddings are sparse maps and include_similar compares them', async () => {
    const peer = await new EmbeddingPeer(8).start();
    closers.push(() => peer.stop());
    const db = await database();
    const t = await app(db, { EMBEDDING_URL: peer.url, EMBEDDING_RESPONSE_KEY: 'sparse' });
    const admin = await t.login('admin');
    const topic = await makeTopic(db.db);
    const create = (name: string, display_name: string) =>
      t.app
        .inject({
          method: 'POST',
          url: '/tag-groups',
          headers: admin.headers,
          payload: { topic_id: topic.id, name, display_name },
        })
        .then((r) => r.json() as { id: string });
    // the peer's sparse vector depends on the text length: equal lengths are identical vectors
    const a = await create('vision-ai', 'Vision AI');
    const b = await create('vision-ml', 'Vision ML');
    const c = await create('nlp', 'NLP');
    const [row] = await db.db.select().from(tagGroups).where(eq(tagGroups.id, a.id));
    expect(row!.embedding).toBeNull();
    expect(row!.sparseEmbedding).toEqual({ '9': 1, '101': 0.5 });
    const groups = (
      await t.app.inject({ method: 'GET', url: `/tag-groups?topic_id=${topic.id}&include_similar=true` })
    ).json() as { id: string | null; similar_groups?: { id: string }[] }[];
    const similar = new Map(groups.map((g) => [g.id, g.similar_groups?.map((s) => s.id)]));
    expect(similar.get(a.id)).toEqual([b.id]);
    expect(similar.get(c.id)).toEqual([]);
  });
});
