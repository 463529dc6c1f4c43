import { FirstFetchJobs } from '../application/catalog/first-fetch-jobs.js';
import { SourcesService } from '../application/catalog/sources.service.js';
import { DrizzleSourceFetchRepository } from '../infrastructure/db/repositories/source-fetch.repository.js';
import { HttpFeedProbe } from '../infrastructure/feeds/feed-probe.js';
import { HttpFetcher } from '../infrastructure/feeds/http-fetcher.js';
import { OutboundGuard } from '../infrastructure/http/outbound-guard.js';
import { AppError } from '../domain/errors.js';
import type { CatalogService } from '../application/catalog/catalog.service.js';
import type { ScraperService } from '../application/pipeline/scraper.service.js';
import type { StartRun } from '../application/catalog/sources.ports.js';
import type { AreaWiring, WiringContext } from './context.js';

/**
 * The admin's sources (issue 18): preview and discovery read URLs with the scraper's fetcher
 * limits and guard; "Fetch now" starts a scraper run of one source; a new source's first read
 * that waits for a run under way is a durable `source.first-fetch` job. Needs the pipeline area.
 */
export const wireSources = (
  ctx: WiringContext,
  { catalog, scraper }: { catalog: CatalogService; scraper: ScraperService },
): AreaWiring<'sources'> => {
  const http = new HttpFetcher({}, new OutboundGuard(ctx.config.fetch.allowedHosts));
  ctx.onClose(() => http.close());
  const logger = ctx.logger.child({ area: 'sources' });
  const startRun: StartRun = (scope, firstRead) => scraper.start(firstRead ? 'source_added' : 'admin', scope);
  const firstFetches = new FirstFetchJobs({
    queue: ctx.queue,
    startRun,
    logger,
    sources: {
      find: (id) =>
        catalog.getSource(id).catch((err: unknown) => {
          if (err instanceof AppError && err.kind === 'NotFound') return null;
          throw err;
        }),
    },
  });
  return {
    services: {
      sources: new SourcesService(
        catalog,
        new HttpFeedProbe(http),
        new DrizzleSourceFetchRepository(ctx.db),
        startRun,
        firstFetches,
      ),
    },
    workers: [
      {
        name: 'source-first-fetch',
        start: () =>
          void firstFetches
            .start()
            .catch((err: unknown) => logger.error({ event: 'sources.jobs.start_failed', err })),
        ready: () => firstFetches.start(),
        // the queue itself is stopped by the pipeline's drain and the container
        stop: async () => undefined,
      },
    ],
  };
};
