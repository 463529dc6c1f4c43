/**
 * Calls joined into one statement across the pipeline's flows in flight (StatementBatch), and the
 * tag store's two per-article statements on it: every caller gets its own answer, a failing call
 * fails alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { StatementBatch } from '../../src/infrastructure/db/statement-batch.js';
import { DrizzleTagStore } from '../../src/infrastructure/db/repositories/tag.repository.js';
import { articles, articleTags, tags } from '../../src/infrastructure/db/schema/index.js';
import { isForeignKeyViolation } from '../../src/application/tags/tags.errors.js';
import type { Database } from '../../src/infrastructure/db/client.js';
import { createTestDatabase, dbKinds } from '../helpers/db.js';
import { makeArticles, makeTopic } from '../helpers/article-factories.js';

describe('StatementBatch', () => {
  it('joins the calls of a turn and of the time a statement is in flight', async () => {
    const joint: number[][] = [];
    const lone: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const batch = new StatementBatch<number, number>(
      async (items) => {
        joint.push(items);
        if (joint.length === 1) await held;
        return items.map((i) => i * 10);
      },
      async (i) => {
        lone.push(i);
        return i * 10;
      },
    );
    const first = [1, 2, 3].map((i) => batch.run(i));
    // let the first statement go out, then queue more while it is in flight
    await new Promise((r) => setImmediate(r));
    const second = [4, 5].map((i) => batch.run(i));
    release();
    expect(await Promise.all([...first, ...second])).toEqual([10, 20, 30, 40, 50]);
    expect(joint).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    // a call alone goes out as it is
    expect(await batch.run(6)).toBe(60);
    expect(lone).toEqual([6]);
  });

  it('replays a failed joint statement call by call: only the bad call fails', async () => {
    const batch = new StatementBatch<number, number>(
      async (items) => {
        if (items.includes(13)) throw new Error('joint statement refused');
        return items;
      },
      async (i) => {
        if (i === 13) throw new Error(`13 refused`);
        return i;
      },
    );
    const out = await Promise.allSettled([11, 12, 13, 14].map((i) => batch.run(i)));
    expect(out.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((out[2] as PromiseRejectedResult).reason).toMatchObject({ message: '13 refused' });
  });

  it('sends at most `max` calls in one statement', async () => {
    const sizes: number[] = [];
    const batch = new StatementBatch<number, number>(
      async (items) => (sizes.push(items.length), items),
      async (i) => (sizes.push(1), i),
      4,
    );
    await Promise.all(Array.from({ length: 10 }, (_, i) => batch.run(i)));
    expect(sizes).toEqual([4, 4, 2]);
  });
});

describe.each(dbKinds())('the tag store joins its per-article statements (%s)', (kind) => {
  let database: Database;
  afterEach(async () => {
    await database?.close();
  });

  it('answers each lookup with its own topic’s tags', async () => {
    database = await createTestDatabase(kind);
    const db = database.db;
    const [t1, t2] = [await makeTopic(db), await makeTopic(db)];
    const rows = await db
      .insert(tags)
      .values([
        { topicId: t1.id, name: 'alpha' },
        { topicId: t1.id, name: 'beta' },
        { topicId: t2.id, name: 'alpha' },
        { topicId: t2.id, name: 'gamma' },
      ])
      .returning();
    const id = (topicId: string, name: string) =>
      rows.find((r) => r.topicId === topicId && r.name === name)!.id;
    const store = new DrizzleTagStore(db);
    const [a, b, c, d] = await Promise.all([
      store.tagIds(t1.id, ['beta', 'alpha', 'missing']),
      store.tagIds(t2.id, ['alpha']),
      store.tagIds(t2.id, ['beta']),
      store.tagIds(t1.id, []),
    ]);
    expect(a).toHaveLength(2);
    expect(a).toEqual(
      expect.arrayContaining([
        { id: id(t1.id, 'alpha'), name: 'alpha' },
        { id: id(t1.id, 'beta'), name: 'beta' },
      ]),
    );
    expect(b).toEqual([{ id: id(t2.id, 'alpha'), name: 'alpha' }]);
    expect(c).toEqual([]);
    expect(d).toEqual([]);
  });

  it('links every article of a batch; an article deleted meanwhile fails alone', async () => {
    database = await createTestDatabase(kind);
    const db = database.db;
    const topic = await makeTopic(db);
    const [tag] = await db.insert(tags).values({ topicId: topic.id, name: 'alpha' }).returning();
    const list = await makeArticles(db, 4, () => ({ topicId: topic.id }));
    await db.delete(articles).where(eq(articles.id, list[2]!.id));
    const store = new DrizzleTagStore(db);
    const out = await Promise.allSettled(list.map((a) => store.linkArticle(a.id, [tag!.id])));
    expect(out.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(isForeignKeyViolation((out[2] as PromiseRejectedResult).reason)).toBe(true);
    const linked = await db.select().from(articleTags).where(eq(articleTags.tagId, tag!.id));
    expect(linked.map((l) => l.articleId).sort()).toEqual([list[0]!.id, list[1]!.id, list[3]!.id].sort());
    // linking again changes nothing and fails nothing
    await Promise.all([list[0]!, list[1]!].map((a) => store.linkArticle(a.id, [tag!.id])));
    expect(await db.select().from(articleTags).where(eq(articleTags.tagId, tag!.id))).toHaveLength(3);
  });
});
