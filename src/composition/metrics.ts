import { MetricCatalogService } from '../application/metrics/metric-catalog.service.js';
import { MetricRefreshService } from '../application/metrics/metric-refresh.service.js';
import {
  citationUserAgent,
  CrossrefSource,
  OpenAlexSource,
  SemanticScholarSource,
} from '../infrastructure/citations/citation-sources.js';
import { appVersion } from './app-version.js';
import { DrizzleMetricDefinitionRepository } from '../infrastructure/db/repositories/metric-definition.repository.js';
import { DrizzleMetricRefreshStore } from '../infrastructure/db/repositories/metric-refresh.repository.js';
import type { WireArea } from './context.js';

/** The metric catalog and the daily metric refresh from the citation APIs (cron, CLI and admin endpoint as runs: composition/runs.ts). */
export const wireMetrics: WireArea = (ctx) => {
  const { citations } = ctx.config;
  const opts = {
    requestsPerSecond: citations.requestsPerSecond,
    userAgent: citationUserAgent(appVersion(), citations.mailto),
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
      metricCatalog: new MetricCatalogService(new DrizzleMetricDefinitionRepository(ctx.db)),
      metricRefresh,
    },
  };
};
