import { ArticlesService } from '../application/articles/articles.service.js';
import { FavoritesService } from '../application/articles/favorites.service.js';
import { FeedsService } from '../application/articles/feeds.service.js';
import { ReadStateService } from '../application/articles/read-state.service.js';
import { SimilarArticlesService } from '../application/articles/similar.service.js';
import { ViewsService } from '../application/views/views.service.js';
import { ViewFlushWorker } from '../application/views/view-flush.worker.js';
import {
  DrizzleArticleRepository,
  DrizzleEnabledMetrics,
} from '../infrastructure/db/repositories/article.repository.js';
import {
  DrizzleArticleEmbeddingStore,
  DrizzleTopicLookup,
} from '../infrastructure/db/repositories/article-embedding.repository.js';
import { DrizzleFavoriteRepository } from '../infrastructure/db/repositories/favorite.repository.js';
import { DrizzleReadStateRepository } from '../infrastructure/db/repositories/read-state.repository.js';
import { DrizzleViewCountStore } from '../infrastructure/db/repositories/view-count.repository.js';
import { FeedAtomWriter } from '../infrastructure/feeds/atom-writer.js';
import { SanitizeHtmlSanitizer } from '../infrastructure/feeds/html-sanitizer.js';
import type { WireArea } from './context.js';

/**
 * Articles API (list, reader view, search, read state, similar articles, Atom feeds out), view
 * counting (with its flush loop on the worker role) and favorites.
 */
export const wireArticles: WireArea = (ctx) => {
  const logger = ctx.logger.child({ area: 'articles' });
  const views = new ViewsService(ctx.cache, new DrizzleViewCountStore(ctx.db), logger);
  const repository = new DrizzleArticleRepository(ctx.db);
  const reads = new DrizzleReadStateRepository(ctx.db);
  const articles = new ArticlesService(
    repository,
    new DrizzleEnabledMetrics(ctx.db),
    reads,
    new SanitizeHtmlSanitizer(),
    views,
  );
  const embedder = ctx.services.embedder;
  if (!embedder) throw new Error('the tags area (embedder) is wired before the articles area');
  return {
    services: {
      articles,
      favorites: new FavoritesService(new DrizzleFavoriteRepository(ctx.db)),
      views,
      readState: new ReadStateService(reads),
      similar: new SimilarArticlesService(new DrizzleArticleEmbeddingStore(ctx.db), repository, embedder),
      feeds: new FeedsService(
        articles,
        new DrizzleTopicLookup(ctx.db),
        // the reports area is wired after this one; the feed asks it at request time
        { list: (q) => ctx.services.reports!.list(q) },
        new FeedAtomWriter(),
        ctx.config.publicBaseUrl,
      ),
    },
    workers: [new ViewFlushWorker(views, ctx.config.jobs.viewCountFlushIntervalSeconds, logger)],
  };
};
