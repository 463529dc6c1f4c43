import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../src/infrastructure/db/client.js';
import { articleTags, tagGroups, tags } from '../../src/infrastructure/db/schema/index.js';

/** Data generators for the tags area, inserted directly through drizzle. */
let seq = 0;

export async function makeGroup(
  db: Db,
  topicId: string,
  overrides: Partial<typeof tagGroups.$inferInsert> = {},
): Promise<typeof tagGroups.$inferSelect> {
  const n = ++seq;
  const [row] = await db
    .insert(tagGroups)
    .values({ topicId, name: `group-${n}`, displayName: `Group ${n}`, sortOrder: n, ...overrides })
    .returning();
  return row!;
}

export async function makeTag(
  db: Db,
  topicId: string,
  name: string,
  tagGroupId: string | null = null,
): Promise<typeof tags.$inferSelect> {
  const [row] = await db.insert(tags).values({ topicId, name, tagGroupId }).returning();
  return row!;
}

export async function link(db: Db, articleId: string, ...tagIds: string[]): Promise<void> {
  await db.insert(articleTags).values(tagIds.map((tagId) => ({ articleId, tagId })));
}

/** Every article-tag link of the given articles, as "article→tag name" strings, sorted. */
export async function linksOf(db: Db, articleIds: string[]): Promise<string[]> {
  const rows = await db
    .select({ a: articleTags.articleId, t: tags.name })
    .from(articleTags)
    .innerJoin(tags, eq(tags.id, articleTags.tagId))
    .where(inArray(articleTags.articleId, articleIds));
  return rows.map((r) => `${r.a}→${r.t}`).sort();
}

/** Number of article-tag link rows of the topic, duplicates included. */
export async function linkRows(db: Db, topicId: string): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(articleTags)
    .innerJoin(tags, eq(tags.id, articleTags.tagId))
    .where(eq(tags.topicId, topicId));
  return r!.n;
}

export async function tagsOfTopic(db: Db, topicId: string) {
  return db.select().from(tags).where(eq(tags.topicId, topicId)).orderBy(tags.name);
}

export async function tagNamed(db: Db, topicId: string, name: string) {
  const [r] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.topicId, topicId), eq(tags.name, name)));
  return r ?? null;
}
