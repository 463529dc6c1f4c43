import { ArticleJobs } from '../application/pipeline/article-jobs.js';
import { DeadJobsService } from '../application/pipeline/dead-jobs.service.js';
import { EventBus } from '../application/pipeline/event-bus.js';
import type { PipelineEvents } from '../application/pipeline/pipeline.events.js';
import { pipelineHandlers } from '../application/pipeline/pipeline.handlers.js';
import type { SourceStore } from '../application/pipeline/pipeline.ports.js';
import { createStages } from '../application/pipeline/pipeline.stages.js';
import { RunRegistry, resolveModel } from '../application/pipeline/run-registry.js';
import { ScraperService, createRunExecutor } from '../application/pipeline/scraper.service.js';
import type { ArticleTagger } from '../application/shared/tagging.js';
import {
  DrizzleProviderRepository,
  DrizzleSourceRepository,
} from '../infrastructure/db/repositories/catalog.repository.js';
import {
  DrizzleArticleStore,
  DrizzleRunStore,
} from '../infrastructure/db/repositories/pipeline.repository.js';
import { DrizzleArticleStates } from '../infrastructure/db/repositories/article-states.repository.js';
import { DrizzleSourceFetchRepository } from '../infrastructure/db/repositories/source-fetch.repository.js';
import { withTraceContext } from '../infrastructure/tracing/job-trace.js';
import { HttpFeedReader, HttpPageReader } from '../infrastructure/feeds/feed-reader.js';
import { HttpFetcher, type FetchLimits } from '../infrastructure/feeds/http-fetcher.js';
import { OutboundGuard } from '../infrastructure/http/outbound-guard.js';
import { withArticlePipelineSpan } from '../infrastructure/tracing/span-wrappers.js';
import type { TelemetryOptions } from '../infrastructure/tracing/telemetry.js';
import type { WireArea, WiringContext } from './context.js';
import { setupTelemetry, traceHandlers, traceRun, traceStages } from './tracing.js';

export interface PipelineWiringOptions {
  telemetry?: TelemetryOptions;
  fetch?: Partial<FetchLimits>;
  /** article flows processed at once (default JOB_CONCURRENCY) */
  concurrency?: number;
}

/** how often every unfinished article is given a job if it has none (besides at start) */
const SWEEP_CRON = '*/10 * * * *';

/**
 * The scraper pipeline: stages, event bus and handlers, traced from outside when MONITOR_OTLP_*
 * are set (the application code never sees a span). Needs the tags area's ArticleTagger.
 */
export const pipelineArea =
  (opts: PipelineWiringOptions = {}): WireArea =>
  async (ctx: WiringContext) => {
    const log = ctx.logger;
    const telemetry = await setupTelemetry(ctx, opts.telemetry);
    const scope = telemetry.scope;

    const sourceRepo = new DrizzleSourceRepository(ctx.db);
    const fetchResults = new DrizzleSourceFetchRepository(ctx.db);
    const sources: SourceStore = {
      listEnabled: () => sourceRepo.list({ enabledOnly: true }),
      get: (id) => sourceRepo.get(id),
      recordFetch: async (id, patch) => void (await sourceRepo.update(id, patch)),
      addFetchResults: (rows) => fetchResults.add(rows),
      setFetchCounts: (runId, field, counts) => fetchResults.setCounts(runId, field, counts),
    };
    const providers = new DrizzleProviderRepository(ctx.db);
    const articles = new DrizzleArticleStore(ctx.db);
    const runs = new DrizzleRunStore(ctx.db);
    const http = new HttpFetcher(opts.fetch, new OutboundGuard(ctx.config.fetch.allowedHosts));
    ctx.onClose(() => http.close());
    const registry = new RunRegistry(() => resolveModel(providers, ctx.llm), log);

    const tagger = ctx.services.tagger ?? missingTagger(ctx);
    let handlers = pipelineHandlers({
      articles,
      tagger,
      runs: registry,
      metrics: telemetry.metrics,
      messenger: ctx.messenger,
      opsChatId: ctx.config.telegram.opsChatId,
      logger: log,
    });
    if (scope) handlers = traceHandlers(scope, handlers);
    const jobsConfig = ctx.config.jobs;
    const concurrency = opts.concurrency ?? jobsConfig.concurrency;
    const bus = new EventBus<PipelineEvents>(handlers, {
      logger: log,
      concurrency,
      flowScope: scope ? withArticlePipelineSpan(scope) : undefined,
    });

    let stages = createStages({
      sources,
      feeds: new HttpFeedReader(http),
      pages: new HttpPageReader(http),
      articles,
      runs,
      registry,
      logger: log,
      now: () => ctx.clock.now(),
    });
    if (scope) stages = traceStages(scope, stages);
    const states = new DrizzleArticleStates(ctx.db);
    const jobs = new ArticleJobs({
      // a job carries the trace context it was sent in: article.pipeline continues the run's trace
      queue: scope ? withTraceContext(scope, ctx.queue) : ctx.queue,
      bus,
      states,
      logger: log,
      retryLimit: jobsConfig.retryLimit,
      retryDelaySeconds: jobsConfig.retryDelaySeconds,
      concurrency,
    });
    const stopping = new AbortController();
    let execute = createRunExecutor({
      stages,
      bus,
      runs,
      registry,
      jobs,
      states,
      logger: log,
      signal: stopping.signal,
    });
    if (scope) execute = traceRun(scope, execute);

    const scraper = new ScraperService(runs, execute, log);
    /**
     * SIGTERM: a run stops waiting for its articles (their jobs go on), then running jobs get the
     * grace period to finish and the rest are handed back to the queue, before telemetry flushes.
     */
    const drain = async () => {
      stopping.abort();
      await scraper.idle();
      await ctx.queue.stop(jobsConfig.shutdownGraceSeconds * 1000);
    };
    // closers run in reverse: this one before telemetry flushes and the stores close
    ctx.onClose(drain);

    return {
      services: {
        scraper,
        deadJobs: new DeadJobsService(ctx.queue),
        ...(telemetry.metricsText ? { metricsText: telemetry.metricsText } : {}),
        ...(telemetry.enabled ? { flushTelemetry: () => telemetry.flush() } : {}),
      },
      jobs: [
        // the schedule reads the sources that are due by their fetch interval
        {
          name: 'scraper',
          cron: jobsConfig.scraperCron,
          run: () => scraper.runNow('cron', undefined, { kind: 'due' }),
        },
        { name: 'article-sweep', cron: SWEEP_CRON, run: () => jobs.sweep() },
      ],
      workers: [
        {
          name: 'article-jobs',
          start: () =>
            void jobs
              .start()
              .catch((err: unknown) => log.error({ event: 'pipeline.jobs.start_failed', err })),
          ready: () => jobs.start(),
          stop: drain,
        },
      ],
    };
  };

export const wirePipeline: WireArea = pipelineArea();

/** Until the tags area is wired, articles keep their suggested tags in metadata only. */
function missingTagger(ctx: WiringContext): ArticleTagger {
  let warned = false;
  return {
    tagArticle() {
      if (!warned)
        ctx.logger.warn({ event: 'pipeline.tagger_missing' }, 'no ArticleTagger wired: tags not linked');
      warned = true;
      return Promise.resolve({ tagIds: [], createdTags: [], suggestions: 0 });
    },
  };
}
