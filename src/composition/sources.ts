import { SourcesService } from '../application/catalog/sources.service.js';
import { DrizzleSourceFetchRepository } from '../infrastructure/db/repositories/source-fetch.repository.js';
import { HttpFeedProbe } from '../infrastructure/feeds/feed-probe.js';
import { HttpFetcher } from '../infrastructure/feeds/http-fetcher.js';
import { OutboundGuard } from '../infrastructure/http/outbound-guard.js';
import type { CatalogService } from '../application/catalog/catalog.service.js';
import type { ScraperService } from '../application/pipeline/scraper.service.js';
import type { AreaWiring, WiringContext } from './context.js';

/**
 * The admin's sources (issue 18): preview and discovery read URLs with the scraper's fetcher
 * limits and guard; "Fetch now" starts a scraper run of one source. Needs the pipeline area.
 */
export const wireSources = (
  ctx: WiringContext,
  { catalog, scraper }: { catalog: CatalogService; scraper: ScraperService },
): AreaWiring<'sources'> => {
  const http = new HttpFetcher({}, new OutboundGuard(ctx.config.fetch.allowedHosts));
  ctx.onClose(() => http.close());
  return {
    services: {
      sources: new SourcesService(
        catalog,
        new HttpFeedProbe(http),
        new DrizzleSourceFetchRepository(ctx.db),
        (scope) => scraper.start('admin', scope),
      ),
    },
  };
};
