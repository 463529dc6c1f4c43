import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { createTestDatabase, dbKinds } from '../helpers/db.js';
import { makeSource, makeTopic } from '../helpers/article-factories.js';
import type { Database } from '../../src/infrastructure/db/client.js';
import { DrizzleArticleStore } from '../../src/infrastructure/db/repositories/pipeline.repository.js';
import { articles } from '../../src/infrastructure/db/schema/index.js';
import type { NewArticle } from '../../src/application/pipeline/pipeline.ports.js';

let n = 0;
function newArticle(topicId: string, sourceId: string, overrides: Partial<NewArticle> = {}): NewArticle {
  n++;
  const url = `https://store.example.org/a/${n}-${Math.random().toString(36).slice(2, 8)}`;
  return {
    topicId,
    sourceId,
    source: 'Store feed',
    url,
    canonicalUrl: url,
    title: `Stored article ${n}`,
    normalizedTitle: `stored article ${n}`,
    author: 'A. Writer',
    content: 'Some text.',
    publishedAt: new Date(Date.UTC(2026, 10, 1, 12, 30, 15, 250)),
    doi: null,
    arxivId: null,
    metadata: { feed_summary: 'x', categories: ['a'] },
    runId: '00000000-0000-4000-8000-000000000001',
    ...overrides,
  };
}

/** distinct words whose tsvector is over 1 MB: a value the database refuses (NUL no longer is one) */
const TOO_LONG_FOR_TSVECTOR = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}`).join(' ');

describe.each(dbKinds())('the pipeline article store on %s', (kind) => {
  let database: Database;
  let store: DrizzleArticleStore;
  let topicId: string;
  let sourceId: string;
  const stored = async (ids: string[]) =>
    new Map(
      (await database.db.select().from(articles).where(inArray(articles.id, ids))).map((r) => [r.id, r]),
    );

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = new DrizzleArticleStore(database.db);
    topicId = (await makeTopic(database.db)).id;
    sourceId = (await makeSource(database.db, { topicId })).id;
  });
  afterAll(() => database.close());

  it('inserts every column as given, awkward characters and nulls included, and leaves known URLs out', async () => {
    const awkward = newArticle(topicId, sourceId, {
      title: 'Quotes " and \' , commas, {braces}, back\\slash, NULL, émoji 🧬, 中文',
      normalizedTitle: 'quotes and commas braces back slash null emoji',
      author: null,
      content: 'line one\nline two\t"quoted" \\ {x,y}',
      doi: '10.1000/x"y',
      arxivId: '2401.12345',
      publishedAt: null,
      metadata: { nested: { quote: '"', slash: '\\', list: [1, null, 'a,b'] }, empty: {} },
    });
    const plain = newArticle(topicId, sourceId);
    const { inserted } = await store.insertMany([awkward, plain]);
    expect(inserted.map((r) => r.canonicalUrl)).toEqual([awkward.canonicalUrl, plain.canonicalUrl]);

    const rows = await stored(inserted.map((r) => r.id));
    for (const [i, a] of [awkward, plain].entries()) {
      const r = rows.get(inserted[i]!.id)!;
      expect(r).toMatchObject({
        topicId: a.topicId,
        sourceId: a.sourceId,
        source: a.source,
        url: a.url,
        canonicalUrl: a.canonicalUrl,
        title: a.title,
        normalizedTitle: a.normalizedTitle,
        author: a.author,
        content: a.content,
        doi: a.doi,
        arxivId: a.arxivId,
        metadata: a.metadata,
        runId: a.runId,
        processingStatus: 'new',
        summary: null,
        translations: {},
      });
      expect(r.publishedAt?.toISOString() ?? null).toBe(a.publishedAt?.toISOString() ?? null);
    }

    // a canonical URL stored meanwhile is left out of the answer, the others go in
    const again = newArticle(topicId, sourceId);
    const second = await store.insertMany([{ ...plain, title: 'other' }, again]);
    expect(second.inserted.map((r) => r.canonicalUrl)).toEqual([again.canonicalUrl]);
  });

  it('writes the patches of concurrent callers, merging metadata and translations into what is stored', async () => {
    const ids = (
      await store.insertMany(Array.from({ length: 6 }, () => newArticle(topicId, sourceId)))
    ).inserted.map((r) => r.id);
    // different shapes in the same turn, and two patches of one article one after the other
    await Promise.all([
      ...ids.slice(0, 3).map((id, i) =>
        store.update(id, {
          content: `text ${i}`,
          summary: `summary ${i}`,
          language: 'en',
          processingStatus: 'analyzed',
          metadata: { analyzer: 'peer', suggested_tags: ['a', `t${i}`] },
        }),
      ),
      ...ids.slice(3).map((id, i) =>
        store.update(id, {
          translations: { 'zh-TW': { title: `譯 ${i}`, summary: null } },
          processingStatus: 'completed',
          processingError: null,
        }),
      ),
      store.update(ids[0]!, { translations: { de: { title: 'Titel', summary: 'Kurz' } } }),
      // the same shape for the same article twice: both land, in order
      store.update(ids[4]!, { metadata: { first: 1, shared: 'first' } }),
      store.update(ids[4]!, { metadata: { second: 2, shared: 'second' } }),
    ]);
    await store.update(ids[3]!, { translations: { de: { title: 'T', summary: null } } });

    const rows = await stored(ids);
    for (const [i, id] of ids.slice(0, 3).entries())
      expect(rows.get(id)).toMatchObject({
        content: `text ${i}`,
        summary: `summary ${i}`,
        language: 'en',
        processingStatus: 'analyzed',
        metadata: { feed_summary: 'x', categories: ['a'], analyzer: 'peer', suggested_tags: ['a', `t${i}`] },
      });
    expect(rows.get(ids[0]!)!.translations).toEqual({ de: { title: 'Titel', summary: 'Kurz' } });
    for (const [i, id] of ids.slice(3).entries())
      expect(rows.get(id)).toMatchObject({
        processingStatus: 'completed',
        processingError: null,
        metadata: { feed_summary: 'x', categories: ['a'] },
        translations: { 'zh-TW': { title: `譯 ${i}`, summary: null } },
      });
    expect(rows.get(ids[3]!)!.translations).toEqual({
      'zh-TW': { title: '譯 0', summary: null },
      de: { title: 'T', summary: null },
    });
    expect(rows.get(ids[4]!)!.metadata).toMatchObject({ first: 1, second: 2, shared: 'second' });
    const before = rows.get(ids[5]!)!.updatedAt.getTime();
    await store.update(ids[5]!, { processingStatus: 'completed' });
    const [after] = await database.db.select().from(articles).where(eq(articles.id, ids[5]!));
    expect(after!.updatedAt.getTime()).toBeGreaterThanOrEqual(before);
  });

  it('a patch the database refuses fails alone: the others written with it are stored', async () => {
    const ids = (
      await store.insertMany(Array.from({ length: 5 }, () => newArticle(topicId, sourceId)))
    ).inserted.map((r) => r.id);
    const patch = (summary: string) => ({
      summary,
      processingStatus: 'analyzed' as const,
      metadata: { analyzer: 'p' },
    });
    // a summary whose search document exceeds PostgreSQL's tsvector limit (1 MB): the statement fails
    const results = await Promise.allSettled(
      ids.map((id, i) => store.update(id, patch(i === 2 ? TOO_LONG_FOR_TSVECTOR : `good ${i}`))),
    );
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    const rows = await stored(ids);
    for (const [i, id] of ids.entries()) {
      if (i === 2) expect(rows.get(id)).toMatchObject({ summary: null, processingStatus: 'new' });
      else expect(rows.get(id)).toMatchObject({ summary: `good ${i}`, processingStatus: 'analyzed' });
    }
    // and the failed article can still be written afterwards (the failure handler does so)
    await store.update(ids[2]!, { processingStatus: 'analysis_failed', processingError: 'bad text' });
    expect((await stored([ids[2]!])).get(ids[2]!)).toMatchObject({
      processingStatus: 'analysis_failed',
      processingError: 'bad text',
    });
  });
});
