import type { Config } from '../config.js';
import type { EmbeddingProvider } from '../application/shared/embedding.js';
import { TagGroupsService } from '../application/tags/tag-groups.service.js';
import { TagsService } from '../application/tags/tags.service.js';
import { TagCurationService } from '../application/tags/tag-curation.service.js';
import { ArticleTaggerService } from '../application/tags/article-tagger.service.js';
import { EndpointEmbeddingProvider } from '../infrastructure/embedding/endpoint-embedding.provider.js';
import {
  builtInLexicalFunction,
  LocalEmbeddingProvider,
} from '../infrastructure/embedding/local-embedding.provider.js';
import { DrizzleTagStore } from '../infrastructure/db/repositories/tag.repository.js';
import { SystemSettings } from '../infrastructure/db/repositories/system-settings.repository.js';
import type { Db } from '../infrastructure/db/client.js';
import type { ArticleTagger } from '../application/shared/tagging.js';
import type { AreaWiring, WiringContext } from './context.js';

export const DENSE_DIMENSION_KEY = 'embedding.dense_dimension';

/** The endpoint provider when EMBEDDING_URL is set, else the built-in lexical embedder. */
export function buildEmbedder(
  cfg: Config['embedding'],
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void,
): EmbeddingProvider & { close?(): Promise<void> } {
  if (cfg.url) {
    return new EndpointEmbeddingProvider({
      url: cfg.url,
      responseKey: cfg.responseKey,
      apiKey: cfg.apiKey ?? null,
      dimension: cfg.responseKey === 'dense' ? cfg.dimension : null,
      timeoutSeconds: cfg.timeoutSeconds,
      retries: cfg.retries,
      retryDelaySeconds: cfg.retryDelaySeconds,
      rateLimit: cfg.rateLimit,
      onRetry,
    });
  }
  return new LocalEmbeddingProvider({
    kind: cfg.responseKey,
    dimension: cfg.dimension,
    function: builtInLexicalFunction(cfg.responseKey, cfg.dimension),
  });
}

/**
 * The dense width is fixed when the vector columns are first used: recorded on first start, and a
 * later start with another width refuses to run (stored vectors could no longer be compared).
 */
export async function ensureEmbeddingDimension(db: Db, embedder: EmbeddingProvider): Promise<void> {
  if (embedder.kind !== 'dense' || !embedder.dimension) return;
  const recorded = Number(
    await new SystemSettings(db).setIfAbsent(DENSE_DIMENSION_KEY, String(embedder.dimension)),
  );
  if (recorded !== embedder.dimension) {
    throw new Error(
      `embedding dimension mismatch: the database holds ${recorded}-dimensional vectors ` +
        `(system_settings ${DENSE_DIMENSION_KEY}) but the embedding provider is configured for ` +
        `${embedder.dimension} (EMBEDDING_DIMENSION); use ${recorded} or a fresh database`,
    );
  }
}

/**
 * Tag groups, tags, normalization suggestions; beside them the pipeline's tagger and the embedding
 * client the articles area uses.
 */
export const wireTags = async (
  ctx: WiringContext,
): Promise<
  AreaWiring<'tagGroups' | 'tags' | 'tagCuration'> & { tagger: ArticleTagger; embedder: EmbeddingProvider }
> => {
  const embedder = buildEmbedder(ctx.config.embedding, ({ attempt, delayMs, error }) =>
    ctx.logger.warn(
      { event: 'embedding.retry', attempt, delay_ms: delayMs, err: error },
      'embedding endpoint unreachable, retrying',
    ),
  );
  const close = embedder.close?.bind(embedder);
  if (close) ctx.onClose(close);
  await ensureEmbeddingDimension(ctx.db, embedder);
  const store = new DrizzleTagStore(ctx.db);
  return {
    services: {
      tagGroups: new TagGroupsService(store, embedder),
      tags: new TagsService(store, embedder, ctx.clock),
      tagCuration: new TagCurationService(store),
    },
    tagger: new ArticleTaggerService(store, embedder, ctx.config.tagSimilarityThreshold),
    embedder,
  };
};
