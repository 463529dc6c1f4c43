import { and, desc, eq, sql } from 'drizzle-orm';
import type {
  ArticleEmbeddingStore,
  EmbeddedArticle,
  TopicHead,
  TopicLookup,
} from '../../../application/articles/articles.ports.js';
import type { Vector } from '../../../application/shared/embedding.js';
import { rowsOf, type Db } from '../client.js';
import { articleEmbeddings, articles, topics } from '../schema/index.js';

/** what is embedded of an article: its title and summary (bounded) */
const textOf = (title: string, summary: string | null) =>
  `${title}\n${(summary ?? '').slice(0, 2000)}`.trim();

const columns = {
  id: articles.id,
  topicId: articles.topicId,
  title: articles.title,
  summary: articles.summary,
  embedding: articleEmbeddings.embedding,
  sparse: articleEmbeddings.sparseEmbedding,
};
type Row = {
  id: string;
  title: string;
  summary: string | null;
  embedding: number[] | null;
  sparse: Record<string, number> | null;
};
const embedded = (r: Row): EmbeddedArticle => ({
  id: r.id,
  text: textOf(r.title, r.summary),
  vector: r.embedding ?? r.sparse ?? null,
});

/** Article vectors for "similar articles", computed on first use and kept (article_embeddings). */
export class DrizzleArticleEmbeddingStore implements ArticleEmbeddingStore {
  constructor(private readonly db: Db) {}

  async one(articleId: string) {
    const [r] = await this.db
      .select(columns)
      .from(articles)
      .leftJoin(articleEmbeddings, eq(articleEmbeddings.articleId, articles.id))
      .where(eq(articles.id, articleId));
    return r ? { topicId: r.topicId, article: embedded(r) } : null;
  }

  async locate(articleId: string) {
    // the topic's newest article is one entry of the (topic_id, scraped_at, id) index read backwards
    const [r] = rowsOf<{ topic_id: string; head_at: Date | string | null; head_id: string | null }>(
      await this.db.execute(sql`
        select a.topic_id, h.scraped_at as head_at, h.id as head_id
        from articles a
        left join lateral (select n.scraped_at, n.id from articles n where n.topic_id = a.topic_id
                           order by n.scraped_at desc, n.id desc limit 1) h on true
        where a.id = ${articleId}`),
    );
    if (!r) return null;
    const head: TopicHead | null =
      r.head_at === null || r.head_id === null
        ? null
        : { scrapedAt: r.head_at instanceof Date ? r.head_at : new Date(r.head_at), id: r.head_id };
    return { topicId: r.topic_id, head };
  }

  async recent(topicId: string, limit: number, after?: TopicHead) {
    // the (topic_id, scraped_at, id) index read backwards: the window costs `limit` index entries
    const rows = await this.db
      .select(columns)
      .from(articles)
      .leftJoin(articleEmbeddings, eq(articleEmbeddings.articleId, articles.id))
      .where(
        after
          ? and(
              eq(articles.topicId, topicId),
              sql`(${articles.scrapedAt}, ${articles.id}) > (${after.scrapedAt.toISOString()}::timestamptz, ${after.id}::uuid)`,
            )
          : eq(articles.topicId, topicId),
      )
      .orderBy(desc(articles.scrapedAt), desc(articles.id))
      .limit(limit);
    return rows.map(embedded);
  }

  async save(vectors: { articleId: string; vector: Vector }[]) {
    if (!vectors.length) return;
    await this.db
      .insert(articleEmbeddings)
      .values(
        vectors.map((v) =>
          Array.isArray(v.vector)
            ? { articleId: v.articleId, embedding: v.vector, sparseEmbedding: null }
            : { articleId: v.articleId, embedding: null, sparseEmbedding: v.vector },
        ),
      )
      // two requests filling the same window: the first vector stays
      .onConflictDoNothing();
  }
}

/** Topic names and state for the Atom feeds (the catalog's table, read-only). */
export class DrizzleTopicLookup implements TopicLookup {
  constructor(private readonly db: Db) {}
  async topic(id: string) {
    const [t] = await this.db
      .select({
        id: topics.id,
        name: topics.name,
        description: topics.description,
        isActive: topics.isActive,
      })
      .from(topics)
      .where(eq(topics.id, id));
    return t ?? null;
  }
}
