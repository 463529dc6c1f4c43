import { GoogleReaderService } from '../application/greader/greader.service.js';
import { DrizzleArticleRepository } from '../infrastructure/db/repositories/article.repository.js';
import type { EnabledMetrics } from '../application/articles/articles.ports.js';
import type { Services } from '../http/services.js';
import type { AreaWiring, WiringContext } from './context.js';

/**
 * The Google Reader API (phone and desktop feed apps): the articles', read state's, favorites',
 * catalog's and sources' own services, and the article repository's item references.
 */
export const wireGoogleReader = (
  ctx: WiringContext,
  deps: Pick<
    Services,
    'articles' | 'readState' | 'favorites' | 'catalog' | 'sources' | 'preferences' | 'auth' | 'tokens'
  > & { enabledMetrics: EnabledMetrics },
): AreaWiring<'greader'> => ({
  services: {
    greader: new GoogleReaderService({
      articles: deps.articles,
      refs: new DrizzleArticleRepository(ctx.db),
      readState: deps.readState,
      favorites: deps.favorites,
      catalog: deps.catalog,
      sources: deps.sources,
      preferences: deps.preferences,
      metrics: deps.enabledMetrics,
      users: deps.auth,
      tokens: deps.tokens,
      baseUrl: ctx.config.publicBaseUrl,
    }),
  },
});
