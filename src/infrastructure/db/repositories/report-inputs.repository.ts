import { and, asc, desc, eq, exists, inArray, isNotNull, sql } from 'drizzle-orm';
import type { ReportArticle, ReportInputs } from '../../../application/reports/reports.ports.js';
import type { Db } from '../client.js';
import {
  articleMetrics,
  articleTags,
  articleTopics,
  articleViewCounts,
  articles,
  metricDefinitions,
  tags,
  topics,
} from '../schema/index.js';
import { DrizzleProviderRepository, DrizzleTopicRepository } from './catalog.repository.js';

const CITATION_KEY = 'citation_count';
/** what a digest reads of an article's content: its opening is where the best sentence usually is */
const CONTENT_CHARS = 4000;

/** The date an article belongs to a week by: its publication date, else when it was scraped. */
const articleDate = sql`coalesce(${articles.publishedAt}, ${articles.scrapedAt})`;
const inWindow = (w: { from: Date; to: Date }) =>
  sql`${articleDate} >= ${w.from.toISOString()}::timestamptz and ${articleDate} < ${w.to.toISOString()}::timestamptz`;

/** Read-only queries over topics, providers, articles, metrics and tags for the weekly report. */
export class DrizzleReportInputs implements ReportInputs {
  private readonly providers: DrizzleProviderRepository;
  private readonly topics: DrizzleTopicRepository;

  constructor(private readonly db: Db) {
    this.providers = new DrizzleProviderRepository(db);
    this.topics = new DrizzleTopicRepository(db);
  }

  async writingProvider() {
    return (await this.providers.findActive('multimodal')) ?? (await this.providers.findActive('text'));
  }

  topic(id: string) {
    return this.topics.get(id);
  }

  async activeTopicsWithArticles(window: { from: Date; to: Date }) {
    const rows = await this.db
      .select()
      .from(topics)
      .where(
        and(
          eq(topics.isActive, true),
          exists(
            this.db
              .select({ one: sql`1` })
              .from(articleTopics)
              .innerJoin(articles, eq(articles.id, articleTopics.articleId))
              .where(and(eq(articleTopics.topicId, topics.id), inWindow(window))),
          ),
        ),
      )
      .orderBy(asc(topics.name));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      slug: r.slug,
      description: r.description,
      isActive: r.isActive,
    }));
  }

  async topArticles(
    topicId: string,
    window: { from: Date; to: Date },
    limit: number,
  ): Promise<ReportArticle[]> {
    const citation = sql<number | null>`${articleMetrics.value}`;
    const rows = await this.db
      .select({
        id: articles.id,
        title: articles.title,
        url: articles.url,
        summary: articles.summary,
        content: sql<string | null>`left(${articles.content}, ${CONTENT_CHARS})`,
        source: articles.source,
        publishedAt: articles.publishedAt,
        viewCount: articleViewCounts.viewCount,
        citationCount: citation,
        workId: sql<string>`coalesce(${articles.workId}, ${articles.id})`,
        doi: articles.doi,
        arxivId: articles.arxivId,
      })
      .from(articles)
      // every article a source of the topic carried, also when it is kept under another topic
      .innerJoin(
        articleTopics,
        and(eq(articleTopics.articleId, articles.id), eq(articleTopics.topicId, topicId)),
      )
      .leftJoin(
        articleMetrics,
        and(eq(articleMetrics.articleId, articles.id), eq(articleMetrics.metricKey, CITATION_KEY)),
      )
      .leftJoin(articleViewCounts, eq(articleViewCounts.articleId, articles.id))
      .where(inWindow(window))
      .orderBy(
        desc(sql`coalesce(${articleMetrics.value}, 0)`),
        desc(sql`coalesce(${articleViewCounts.viewCount}, 0)`),
        sql`${articles.publishedAt} desc nulls last`,
        asc(articles.id),
      )
      .limit(limit);
    if (!rows.length) return [];
    const metricRows = await this.db
      .select({
        articleId: articleMetrics.articleId,
        key: articleMetrics.metricKey,
        value: articleMetrics.value,
      })
      .from(articleMetrics)
      .innerJoin(
        metricDefinitions,
        and(eq(metricDefinitions.metricKey, articleMetrics.metricKey), eq(metricDefinitions.enabled, true)),
      )
      .where(
        and(
          inArray(
            articleMetrics.articleId,
            rows.map((r) => r.id),
          ),
          isNotNull(articleMetrics.value),
        ),
      );
    const metrics = new Map<string, Record<string, number>>();
    for (const m of metricRows) {
      const bag = metrics.get(m.articleId) ?? {};
      bag[m.key] = Number(m.value);
      metrics.set(m.articleId, bag);
    }
    return rows.map((r) => ({
      ...r,
      viewCount: r.viewCount ?? 0,
      citationCount: r.citationCount === null ? null : Number(r.citationCount),
      metrics: metrics.get(r.id) ?? {},
    }));
  }

  async topTags(articleIds: string[], limit: number) {
    if (!articleIds.length) return [];
    const n = sql<number>`count(*)`;
    const rows = await this.db
      .select({ name: tags.name, n })
      .from(articleTags)
      .innerJoin(tags, eq(tags.id, articleTags.tagId))
      .where(inArray(articleTags.articleId, articleIds))
      .groupBy(tags.name)
      .orderBy(desc(n), asc(tags.name))
      .limit(limit);
    return rows.map((r) => r.name);
  }
}
