import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import { link, linksOf, makeGroup, makeTag, tagsOfTopic } from '../helpers/tag-factories.js';
import type { Database } from '../../src/infrastructure/db/client.js';
import { DrizzleTagStore } from '../../src/infrastructure/db/repositories/tag.repository.js';
import { ArticleTaggerService } from '../../src/application/tags/article-tagger.service.js';
import { LocalEmbeddingProvider } from '../../src/infrastructure/embedding/local-embedding.provider.js';
import { lexicalEmbed } from '../../src/infrastructure/embedding/lexical-embedder.js';

describe.each(dbKinds())('tag repository on %s', (kind) => {
  let database: Database;
  let store: DrizzleTagStore;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = new DrizzleTagStore(database.db);
  });
  afterAll(() => database.close());

  it('stores dense and sparse embeddings and reads them back', async () => {
    const topic = await makeTopic(database.db);
    const dense = await store.insertTag({ topicId: topic.id, name: 'dense', embedding: [0.5, -0.25, 1] });
    const sparse = await store.insertTag({
      topicId: topic.id,
      name: 'sparse',
      embedding: { '17': 0.5, '30521': 1 },
    });
    const vectors = await store.tagVectors(topic.id);
    expect(vectors.find((v) => v.id === dense!.id)!.embedding).toEqual([0.5, -0.25, 1]);
    expect(vectors.find((v) => v.id === sparse!.id)!.embedding).toEqual({ '17': 0.5, '30521': 1 });
    // the same name in the same bucket is refused quietly (null), in another group it is allowed
    expect(await store.insertTag({ topicId: topic.id, name: 'dense', embedding: null })).toBeNull();
    const g = await makeGroup(database.db, topic.id);
    await makeTag(database.db, topic.id, 'dense', g.id);
    expect((await tagsOfTopic(database.db, topic.id)).map((t) => t.name)).toEqual([
      'dense',
      'dense',
      'sparse',
    ]);
  });

  it('moveLinks never duplicates a link; a failing transaction leaves nothing changed', async () => {
    const topic = await makeTopic(database.db);
    const from = await makeTag(database.db, topic.id, 'from');
    const to = await makeTag(database.db, topic.id, 'to');
    const a = await makeArticle(database.db, { topicId: topic.id });
    const b = await makeArticle(database.db, { topicId: topic.id });
    await link(database.db, a.id, from.id, to.id);
    await link(database.db, b.id, from.id);
    const before = await linksOf(database.db, [a.id, b.id]);

    await expect(
      store.transaction(async (repo) => {
        await repo.moveLinks(from.id, to.id);
        await repo.deleteTags([from.id]);
        throw new Error('halfway');
      }),
    ).rejects.toThrow('halfway');
    expect(await linksOf(database.db, [a.id, b.id])).toEqual(before);

    await store.transaction((repo) => repo.moveLinks(from.id, to.id));
    expect(await linksOf(database.db, [a.id, b.id])).toEqual([`${a.id}→to`, `${b.id}→to`].sort());
    expect(await store.countLinks([to.id])).toBe(2);
  });

  it('concurrent taggers agree on one new tag', async () => {
    const topic = await makeTopic(database.db);
    const embedder = new LocalEmbeddingProvider({
      kind: 'dense',
      dimension: 32,
      function: { mode: 'async', fn: async (texts) => lexicalEmbed(texts, { kind: 'dense', dimension: 32 }) },
    });
    const tagger = new ArticleTaggerService(store, embedder, 0.85);
    const arts = await Promise.all([1, 2, 3, 4].map(() => makeArticle(database.db, { topicId: topic.id })));
    const results = await Promise.all(
      arts.map((a) =>
        tagger.tagArticle({ topicId: topic.id, articleId: a.id, names: ['Quantum Computing'] }),
      ),
    );
    const ids = new Set(results.flatMap((r) => r.tagIds));
    expect(ids.size).toBe(1);
    expect(results.flatMap((r) => r.createdTags)).toEqual(['quantum computing']);
    expect(
      await linksOf(
        database.db,
        arts.map((a) => a.id),
      ),
    ).toHaveLength(4);
  });
});
