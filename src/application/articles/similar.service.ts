import { notFound } from '../../domain/errors.js';
import type { ArticleSummary } from '../../domain/articles.js';
import { cosineSimilarity, type EmbeddingProvider, type Vector } from '../shared/embedding.js';
import type { ArticleEmbeddingStore, ArticleReadRepository } from './articles.ports.js';

/**
 * Similar articles are looked for among the topic's most recently scraped articles only: cosine
 * similarity is computed in code over at most this many stored vectors (~6 MB of 384-wide dense
 * vectors), so the answer's cost is bounded whatever the topic's size (docs/decisions.md).
 */
export const SIMILAR_WINDOW = 5000;
export const SIMILAR_COUNT = 5;
/** texts embedded per provider call when a window's vectors are computed for the first time */
const EMBED_BATCH = 256;

/** GET /articles/{id}/similar: the nearest articles of the same topic by embedding cosine. */
export class SimilarArticlesService {
  constructor(
    private readonly store: ArticleEmbeddingStore,
    private readonly articles: ArticleReadRepository,
    private readonly embedder: EmbeddingProvider,
  ) {}

  async similar(articleId: string, viewerId: string | null): Promise<{ items: ArticleSummary[] }> {
    const found = await this.store.one(articleId);
    if (!found) throw notFound('article');
    const window = await this.store.recent(found.topicId, SIMILAR_WINDOW);
    // the article itself may be older than the window: it is compared all the same
    const self = window.find((a) => a.id === articleId) ?? found.article;
    await this.fill([...new Set([self, ...window])].filter((a) => a.vector === null));
    if (!self.vector) return { items: [] };
    const ranked = window
      .filter((a) => a.id !== articleId && a.vector)
      .map((a) => ({ id: a.id, score: cosineSimilarity(self.vector!, a.vector!) }))
      .filter((a) => a.score > 0)
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
      .slice(0, SIMILAR_COUNT);
    return {
      items: await this.articles.byIds(
        ranked.map((r) => r.id),
        viewerId,
      ),
    };
  }

  /** embeds and stores the vectors the window lacks */
  private async fill(missing: { id: string; text: string; vector: Vector | null }[]): Promise<void> {
    for (let i = 0; i < missing.length; i += EMBED_BATCH) {
      const batch = missing.slice(i, i + EMBED_BATCH);
      const vectors = await this.embedder.embed(batch.map((a) => a.text));
      batch.forEach((a, n) => (a.vector = vectors[n] ?? null));
      await this.store.save(batch.flatMap((a) => (a.vector ? [{ articleId: a.id, vector: a.vector }] : [])));
    }
  }
}
