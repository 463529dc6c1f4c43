import { MetricCatalogService } from '../application/metrics/metric-catalog.service.js';
import {
  CITATION_ARRIVALS_CRON,
  CITATION_ARRIVALS_JOB,
  MetricRefreshService,
} from '../application/metrics/metric-refresh.service.js';
import {
  citationUserAgent,
  CrossrefSource,
  type IdentifierLinkSink,
  OpenAlexSource,
  SemanticScholarSource,
} from '../infrastructure/citations/citation-sources.js';
import { appVersion } from './app-version.js';
import { DrizzleMetricDefinitionRepository } from '../infrastructure/db/repositories/metric-definition.repository.js';
import { DrizzleMetricRefreshStore } from '../infrastructure/db/repositories/metric-refresh.repository.js';
import type { AreaWiring, WiringContext } from './context.js';
import { requestTick, scheduledJob } from '../jobs/scheduler.js';

/**
 * The metric catalog, the lookup of new articles' citations (a tick every minute, and one asked for
 * as soon as a run stores new articles) and the daily metric refresh from the citation APIs (cron,
 * CLI and admin endpoint as runs: composition/runs.ts).
 */
export const wireMetrics = (
  ctx: WiringContext,
  deps: { onLinks?: IdentifierLinkSink; onCatalogChange?: () => void } = {},
): AreaWiring<'metricCatalog'> & {
  metricRefresh: MetricRefreshService;
  /** asks for the lookup of new articles now (a queued tick) instead of at the next minute */
  lookUpArrivalsSoon: () => void;
} => {
  const { citations } = ctx.config;
  // the identifiers an answer links (a preprint's published DOI) go to the works area
  const opts = {
    requestsPerSecond: citations.requestsPerSecond,
    userAgent: citationUserAgent(appVersion(), citations.mailto),
    onLinks: deps.onLinks,
  };
  const metricRefresh = new MetricRefreshService(
    new DrizzleMetricRefreshStore(ctx.db),
    [
      new SemanticScholarSource(citations.semanticScholarUrl, {
        ...opts,
        apiKey: citations.semanticScholarApiKey,
      }),
      new OpenAlexSource(citations.openAlexUrl, { ...opts, mailto: citations.mailto }),
      new CrossrefSource(citations.crossrefUrl, opts),
    ],
    ctx.clock,
    ctx.logger.child({ area: 'metrics' }),
    ctx.jobLock,
  );
  return {
    services: {
      metricCatalog: new MetricCatalogService(
        new DrizzleMetricDefinitionRepository(ctx.db),
        deps.onCatalogChange,
      ),
    },
    metricRefresh,
    lookUpArrivalsSoon: () =>
      void requestTick(ctx.queue, CITATION_ARRIVALS_JOB, ctx.logger.child({ area: 'metrics' })),
    jobs: [
      scheduledJob({
        name: CITATION_ARRIVALS_JOB,
        cron: CITATION_ARRIVALS_CRON,
        run: () => metricRefresh.lookUpArrivals(),
        // every minute: a tick that found no new article is logged at debug
        idle: (summary) => summary.articles === 0,
      }),
    ],
  };
};
