import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../src/infrastructure/db/client.js';
import {
  articleMetrics,
  articleTags,
  articleViewCounts,
  articles,
  metricDefinitions,
  sources,
  tags,
  topics,
} from '../../src/infrastructure/db/schema/index.js';

/**
 * Data generators for articles and what hangs off them, inserted directly through drizzle.
 * Every maker takes overrides; anything not given gets a unique, valid value.
 */
let seq = 0;
const next = () => `${Date.now().toString(36)}-${++seq}`;

export type TopicRow = typeof topics.$inferSelect;
export type ArticleRow = typeof articles.$inferSelect;

export async function makeTopic(
  db: Db,
  overrides: Partial<typeof topics.$inferInsert> = {},
): Promise<TopicRow> {
  const n = next();
  const [row] = await db
    .insert(topics)
    .values({ name: `Topic ${n}`, slug: `topic-${n}`, ...overrides })
    .returning();
  return row!;
}

export async function makeSource(
  db: Db,
  overrides: Partial<typeof sources.$inferInsert> & { topicId?: string } = {},
): Promise<typeof sources.$inferSelect> {
  const n = next();
  const topicId = overrides.topicId ?? (await makeTopic(db)).id;
  const [row] = await db
    .insert(sources)
    .values({
      name: `Source ${n}`,
      kind: 'rss',
      url: `https://feeds.example.test/${n}.xml`,
      ...overrides,
      topicId,
    })
    .returning();
  return row!;
}

/** An article; a topic is created when none is given. `source` is the display name (sortable). */
export async function makeArticle(
  db: Db,
  overrides: Partial<typeof articles.$inferInsert> = {},
): Promise<ArticleRow> {
  const n = next();
  const topicId = overrides.topicId ?? (await makeTopic(db)).id;
  const title = overrides.title ?? `Article ${n}`;
  const url = overrides.url ?? `https://news.example.test/articles/${n}`;
  const [row] = await db
    .insert(articles)
    .values({
      source: 'Example News',
      canonicalUrl: url,
      normalizedTitle: title.toLowerCase(),
      summary: `Summary of ${title}`,
      ...overrides,
      topicId,
      title,
      url,
    })
    .returning();
  return row!;
}

/** Several articles in one topic; `each(i)` gives per-article overrides. */
export async function makeArticles(
  db: Db,
  count: number,
  each: (i: number) => Partial<typeof articles.$inferInsert> = () => ({}),
): Promise<ArticleRow[]> {
  const out: ArticleRow[] = [];
  for (let i = 0; i < count; i++) out.push(await makeArticle(db, each(i)));
  return out;
}

/** Upserts one metric value (null stores a row without a value, as a failed refresh does). */
export async function setMetric(
  db: Db,
  articleId: string,
  metricKey: string,
  value: number | null,
  source = 'test',
): Promise<void> {
  await db
    .insert(articleMetrics)
    .values({ articleId, metricKey, value, source })
    .onConflictDoUpdate({
      target: [articleMetrics.articleId, articleMetrics.metricKey],
      set: { value, source, refreshedAt: new Date() },
    });
}

/** A catalog entry (metric_definitions); enabled unless told otherwise. */
export async function makeMetricDefinition(
  db: Db,
  overrides: Partial<typeof metricDefinitions.$inferInsert> & { metricKey?: string } = {},
): Promise<typeof metricDefinitions.$inferSelect> {
  const key = overrides.metricKey ?? `metric_${next().replace(/-/g, '_')}`;
  const [row] = await db
    .insert(metricDefinitions)
    .values({ labelI18nKey: `metrics.${key}`, ...overrides, metricKey: key })
    .returning();
  return row!;
}

/** Links tags (created in the article's topic when missing) to an article. */
export async function tagArticle(db: Db, article: Pick<ArticleRow, 'id' | 'topicId'>, names: string[]) {
  for (const name of names) {
    let [tag] = await db
      .select()
      .from(tags)
      .where(and(eq(tags.topicId, article.topicId), eq(tags.name, name)));
    tag ??= (
      await db.insert(tags).values({ id: randomUUID(), topicId: article.topicId, name }).returning()
    )[0]!;
    await db.insert(articleTags).values({ articleId: article.id, tagId: tag.id }).onConflictDoNothing();
  }
}

/** The stored view count of an article; null = never viewed (no row). */
export async function setViewCount(db: Db, articleId: string, viewCount: number | null): Promise<void> {
  if (viewCount === null) {
    await db.delete(articleViewCounts).where(eq(articleViewCounts.articleId, articleId));
    return;
  }
  await db
    .insert(articleViewCounts)
    .values({ articleId, viewCount })
    .onConflictDoUpdate({ target: articleViewCounts.articleId, set: { viewCount } });
}
