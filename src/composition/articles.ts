import { ArticlesService } from '../application/articles/articles.service.js';
import { FavoritesService } from '../application/articles/favorites.service.js';
import { ViewsService } from '../application/views/views.service.js';
import { ViewFlushWorker } from '../application/views/view-flush.worker.js';
import {
  DrizzleArticleRepository,
  DrizzleEnabledMetrics,
} from '../infrastructure/db/repositories/article.repository.js';
import { DrizzleFavoriteRepository } from '../infrastructure/db/repositories/favorite.repository.js';
import { DrizzleViewCountStore } from '../infrastructure/db/repositories/view-count.repository.js';
import type { WireArea } from './context.js';

/** Articles API, view counting (with its flush loop on the worker role) and favorites. */
export const wireArticles: WireArea = (ctx) => {
  const logger = ctx.logger.child({ area: 'articles' });
  const views = new ViewsService(ctx.cache, new DrizzleViewCountStore(ctx.db), logger);
  return {
    services: {
      articles: new ArticlesService(new DrizzleArticleRepository(ctx.db), new DrizzleEnabledMetrics(ctx.db)),
      favorites: new FavoritesService(new DrizzleFavoriteRepository(ctx.db)),
      views,
    },
    workers: [new ViewFlushWorker(views, ctx.config.jobs.viewCountFlushIntervalSeconds, logger)],
  };
};
