import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../src/infrastructure/db/client.js';
import {
  articleMetrics,
  articleTags,
  articleViewCounts,
  articles,
  notificationSettings,
  providers,
  subscriptions,
  tags,
  topics,
  users,
  weeklyReports,
} from '../../src/infrastructure/db/schema/index.js';

let seq = 0;

export async function insertTopic(db: Db, name = `Topic ${++seq}`) {
  const [t] = await db
    .insert(topics)
    .values({ name, slug: `${name.toLowerCase().replace(/\W+/g, '-')}-${randomUUID().slice(0, 6)}` })
    .returning();
  return t!;
}

export async function insertProvider(
  db: Db,
  o: { baseUrl: string; imageModel?: string | null; type?: 'text' | 'multimodal'; isActive?: boolean },
) {
  const [p] = await db
    .insert(providers)
    .values({
      name: `peer-${++seq}`,
      type: o.type ?? 'multimodal',
      baseUrl: o.baseUrl,
      model: 'gpt-test',
      imageModel: o.imageModel ?? null,
      apiKey: 'sk-test',
      isActive: o.isActive ?? true,
    })
    .returning();
  return p!;
}

export interface ArticleSeed {
  title?: string;
  publishedAt?: Date | null;
  /** when the article was scraped: the week an undated article belongs to */
  scrapedAt?: Date;
  viewCount?: number | null;
  citations?: number | null;
  tags?: string[];
  summary?: string;
}

/** An article of the topic with an optional citation_count metric and tags. */
export async function insertArticle(db: Db, topicId: string, o: ArticleSeed = {}) {
  const n = ++seq;
  const url = `https://example.org/papers/${n}-${randomUUID().slice(0, 8)}`;
  const title = o.title ?? `Paper ${n}`;
  const [a] = await db
    .insert(articles)
    .values({
      topicId,
      source: 'arXiv',
      url,
      canonicalUrl: url,
      title,
      normalizedTitle: title.toLowerCase(),
      summary: o.summary ?? `Summary of ${title}.`,
      publishedAt: o.publishedAt === undefined ? new Date() : o.publishedAt,
      ...(o.scrapedAt ? { scrapedAt: o.scrapedAt } : {}),
      processingStatus: 'completed',
    })
    .returning();
  if (o.viewCount !== undefined && o.viewCount !== null)
    await db.insert(articleViewCounts).values({ articleId: a!.id, viewCount: o.viewCount });
  if (o.citations !== undefined && o.citations !== null)
    await db
      .insert(articleMetrics)
      .values({ articleId: a!.id, metricKey: 'citation_count', value: o.citations });
  for (const name of o.tags ?? []) {
    // looked up first: the tags area owns the table's unique constraints
    const [found] = await db
      .select()
      .from(tags)
      .where(and(eq(tags.topicId, topicId), eq(tags.name, name)));
    const t = found ?? (await db.insert(tags).values({ topicId, name }).returning())[0];
    await db.insert(articleTags).values({ articleId: a!.id, tagId: t!.id });
  }
  return a!;
}

/**
 * A user subscribed to the topic who reads e-mail: a settings row with e-mail on plus the given
 * settings. `settings: null` writes no row, so the defaults apply (e-mail off since issue 18).
 */
export async function insertSubscriber(
  db: Db,
  topicId: string | null,
  o: {
    email?: string;
    name?: string;
    settings?: {
      emailEnabled?: boolean;
      messengerChatId?: string | null;
      messengerEnabled?: boolean;
      locale?: 'en' | 'zh-TW';
    } | null;
  } = {},
) {
  const [u] = await db
    .insert(users)
    .values({
      email: o.email ?? `reader${++seq}-${randomUUID().slice(0, 6)}@example.test`,
      passwordHash: 'x',
      displayName: o.name ?? null,
    })
    .returning();
  if (topicId) await db.insert(subscriptions).values({ userId: u!.id, topicId });
  if (o.settings !== null)
    await db.insert(notificationSettings).values({ userId: u!.id, emailEnabled: true, ...o.settings });
  return u!;
}

export async function insertReport(
  db: Db,
  o: { topicId: string; weekStartDate: string; status?: string; articleIds?: string[]; title?: string },
) {
  const [r] = await db
    .insert(weeklyReports)
    .values({
      topicId: o.topicId,
      weekStartDate: o.weekStartDate,
      title: o.title ?? 'Stored report',
      summaryText: 'Stored summary [1].',
      status: o.status ?? 'completed',
      articleIds: o.articleIds ?? [],
      articleCount: o.articleIds?.length ?? 0,
    })
    .returning();
  return r!;
}

/** Width and height of a PNG from its IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.subarray(1, 4).toString('ascii') !== 'PNG') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
