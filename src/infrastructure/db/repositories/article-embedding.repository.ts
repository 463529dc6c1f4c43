import { desc, eq } from 'drizzle-orm';
import type {
  ArticleEmbeddingStore,
  EmbeddedArticle,
  TopicLookup,
} from '../../../application/articles/articles.ports.js';
import type { Vector } from '../../../application/shared/embedding.js';
import type { Db } from '../client.js';
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

  async recent(topicId: string, limit: number) {
    // the (topic_id, scraped_at, id) index read backwards: the window costs `limit` index entries
    const rows = await this.db
      .select(columns)
      .from(articles)
      .leftJoin(articleEmbeddings, eq(articleEmbeddings.articleId, articles.id))
      .where(eq(articles.topicId, topicId))
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

/** Topic names for the Atom feeds (the catalog's table, read-only). */
export class DrizzleTopicLookup implements TopicLookup {
  constructor(private readonly db: Db) {}
  async topic(id: string) {
    const [t] = await this.db
      .select({ id: topics.id, name: topics.name, description: topics.description })
      .from(topics)
      .where(eq(topics.id, id));
    return t ?? null;
  }
}
