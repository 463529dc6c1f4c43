import { ArticlesService } from '../application/articles/articles.service.js';
import { FavoritesService } from '../application/articles/favorites.service.js';
import { FeedsService } from '../application/articles/feeds.service.js';
import { ReadStateService } from '../application/articles/read-state.service.js';
import { SimilarArticlesService } from '../application/articles/similar.service.js';
import { ViewsService } from '../application/views/views.service.js';
import { ViewFlushWorker } from '../application/views/view-flush.worker.js';
import { DrizzleArticleRepository } from '../infrastructure/db/repositories/article.repository.js';
import {
  DrizzleArticleEmbeddingStore,
  DrizzleTopicLookup,
} from '../infrastructure/db/repositories/article-embedding.repository.js';
import {
  EMBEDDED_PHRASE_CANDIDATES,
  EMBEDDED_RANK_CHUNK,
  EMBEDDED_RELEVANCE_CANDIDATES,
  EMBEDDED_SNIPPET_CHUNK,
  RELEVANCE_CANDIDATES,
} from '../infrastructure/db/repositories/article-search.sql.js';
import { DrizzleFavoriteRepository } from '../infrastructure/db/repositories/favorite.repository.js';
import { DrizzleReadStateRepository } from '../infrastructure/db/repositories/read-state.repository.js';
import { DrizzleViewCountStore } from '../infrastructure/db/repositories/view-count.repository.js';
import { FeedAtomWriter } from '../infrastructure/feeds/atom-writer.js';
import { SanitizeHtmlSanitizer } from '../infrastructure/feeds/html-sanitizer.js';
import { CachedHtmlSanitizer } from '../infrastructure/feeds/cached-html-sanitizer.js';
import type { EmbeddingProvider } from '../application/shared/embedding.js';
import type { ReportsService } from '../application/reports/reports.service.js';
import type { EnabledMetrics } from '../application/articles/articles.ports.js';
import type { AreaWiring, WiringContext } from './context.js';

/**
 * Articles API (list, reader view, search, read state, similar articles, Atom feeds out), view
 * counting (with its flush loop on the worker role) and favorites.
 */
export const wireArticles = (
  ctx: WiringContext,
  {
    embedder,
    reports,
    enabledMetrics,
  }: { embedder: EmbeddingProvider; reports: Pick<ReportsService, 'list'>; enabledMetrics: EnabledMetrics },
): AreaWiring<'articles' | 'favorites' | 'views' | 'readState' | 'similar' | 'feeds'> => {
  const logger = ctx.logger.child({ area: 'articles' });
  const views = new ViewsService(ctx.cache, new DrizzleViewCountStore(ctx.db), logger, {
    recentFlushDelayMs: ctx.config.jobs.viewCountRecentFlushSeconds * 1000,
  });
  const repository = new DrizzleArticleRepository(ctx.db, Date.now, {
    relevanceCandidates:
      ctx.database.kind === 'pglite' ? EMBEDDED_RELEVANCE_CANDIDATES : RELEVANCE_CANDIDATES,
    phraseCandidates: ctx.database.kind === 'pglite' ? EMBEDDED_PHRASE_CANDIDATES : null,
    chunks:
      ctx.database.kind === 'pglite' ? { rank: EMBEDDED_RANK_CHUNK, snippets: EMBEDDED_SNIPPET_CHUNK } : null,
  });
  const reads = new DrizzleReadStateRepository(ctx.db);
  const articles = new ArticlesService(
    repository,
    enabledMetrics,
    reads,
    new CachedHtmlSanitizer(new SanitizeHtmlSanitizer()),
    views,
  );
  return {
    services: {
      articles,
      favorites: new FavoritesService(new DrizzleFavoriteRepository(ctx.db)),
      views,
      readState: new ReadStateService(reads),
      similar: new SimilarArticlesService(new DrizzleArticleEmbeddingStore(ctx.db), repository, embedder, {
        // the built-in embedder runs in process; an endpoint is called for signed-in readers only
        guestsMayEmbed: !ctx.config.embedding.url,
      }),
      feeds: new FeedsService(
        articles,
        new DrizzleTopicLookup(ctx.db),
        reports,
        new FeedAtomWriter(),
        ctx.config.publicBaseUrl,
      ),
    },
    workers: [new ViewFlushWorker(views, ctx.config.jobs.viewCountFlushIntervalSeconds, logger)],
  };
};
