import { notFound } from '../../domain/errors.js';
import { normalizeTagName, type TagVector } from '../../domain/tags.js';
import { cosineSimilarity, type EmbeddingProvider } from '../shared/embedding.js';
import type { ArticleTagger, TagArticleResult } from '../shared/tagging.js';
import type { TagStore } from './tags.ports.js';
import { isForeignKeyViolation } from './tags.errors.js';

/**
 * The pipeline's way to tag an article. An exact (normalized) name reuses the topic's tag, a name
 * an admin merged before (an approved suggestion) reuses the tag it was merged into; any other
 * name becomes a new ungrouped tag, and when it is close to an existing tag (cosine similarity >=
 * the threshold) a pending normalization suggestion is recorded, unless that pair was seen before.
 */
export class ArticleTaggerService implements ArticleTagger {
  constructor(
    private readonly store: TagStore,
    private readonly embedder: EmbeddingProvider,
    private readonly threshold: number,
  ) {}

  async tagArticle(input: {
    topicId: string;
    articleId: string;
    names: string[];
  }): Promise<TagArticleResult> {
    const names = [...new Set(input.names.map(normalizeTagName).filter(Boolean))];
    if (names.length === 0) return { tagIds: [], createdTags: [], suggestions: 0 };

    const existing = new Map<string, string>();
    // ids only: the embeddings are read below, and only when a tag has to be created
    for (const t of await this.store.tagIds(input.topicId, names)) {
      if (!existing.has(t.name)) existing.set(t.name, t.id);
    }
    const aliases = await this.store.approvedAliases(
      input.topicId,
      names.filter((n) => !existing.has(n)),
    );
    const fresh = names.filter((n) => !existing.has(n) && !aliases.has(n));
    // nothing to create: the links are one statement, atomic without a transaction
    if (fresh.length === 0) return this.linkOnly(input.articleId, names, existing, aliases);
    // embeddings before the transaction: none stays open while the embedding service answers
    const vectors = fresh.length ? await this.embedder.embed(fresh) : [];
    const candidates = fresh.length ? await this.store.tagVectors(input.topicId) : [];
    const seen = new Set(
      (await this.store.suggestionPairs(input.topicId, fresh)).flatMap(([a, b]) => [
        `${a}\n${b}`,
        `${b}\n${a}`,
      ]),
    );

    try {
      return await this.store.transaction(async (repo) => {
        const tagIds = names.filter((n) => !fresh.includes(n)).map((n) => existing.get(n) ?? aliases.get(n)!);
        const createdTags: string[] = [];
        let suggestions = 0;
        for (const [i, name] of fresh.entries()) {
          const embedding = vectors[i]!;
          const created = await repo.insertTag({ topicId: input.topicId, name, embedding });
          if (!created) {
            // created meanwhile by a concurrent run: reuse it
            const [other] = await repo.tagVectors(input.topicId, [name]);
            if (other) tagIds.push(other.id);
            continue;
          }
          tagIds.push(created.id);
          createdTags.push(name);
          const best = closest(created, candidates, seen);
          candidates.push(created);
          if (best && best.score >= this.threshold) {
            const recorded = await repo.insertSuggestion({
              topicId: input.topicId,
              newTagId: created.id,
              existingTagId: best.tag.id,
              newTagName: name,
              existingTagName: best.tag.name,
              similarityScore: Math.round(best.score * 1e4) / 1e4,
              articleId: input.articleId,
            });
            if (recorded) suggestions++;
          }
        }
        const linked = [...new Set(tagIds)];
        await repo.linkArticle(input.articleId, linked);
        return { tagIds: linked, createdTags, suggestions };
      });
    } catch (e) {
      throw articleGone(e);
    }
  }

  untagArticle(articleId: string, tagIds: string[]): Promise<void> {
    return this.store.unlinkArticle(articleId, [...new Set(tagIds)]);
  }

  private async linkOnly(
    articleId: string,
    names: string[],
    existing: Map<string, string>,
    aliases: Map<string, string>,
  ): Promise<TagArticleResult> {
    const linked = [...new Set(names.map((n) => existing.get(n) ?? aliases.get(n)!))];
    try {
      await this.store.linkArticle(articleId, linked);
    } catch (e) {
      throw articleGone(e);
    }
    return { tagIds: linked, createdTags: [], suggestions: 0 };
  }
}

const articleGone = (e: unknown) => (isForeignKeyViolation(e) ? notFound('article', 'article_not_found') : e);

function closest(tag: TagVector, candidates: TagVector[], seen: Set<string>) {
  let best: { tag: TagVector; score: number } | null = null;
  for (const c of candidates) {
    if (c.id === tag.id || c.name === tag.name || !c.embedding || !tag.embedding) continue;
    if (seen.has(`${tag.name}\n${c.name}`)) continue;
    const score = cosineSimilarity(tag.embedding, c.embedding);
    if (!best || score > best.score) best = { tag: c, score };
  }
  return best;
}
