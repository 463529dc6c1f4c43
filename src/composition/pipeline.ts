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
import { HttpFeedReader, HttpPageReader } from '../infrastructure/feeds/feed-reader.js';
import { HttpFetcher, type FetchLimits } from '../infrastructure/feeds/http-fetcher.js';
import { withArticlePipelineSpan } from '../infrastructure/tracing/span-wrappers.js';
import type { TelemetryOptions } from '../infrastructure/tracing/telemetry.js';
import type { WireArea, WiringContext } from './context.js';
import { setupTelemetry, traceHandlers, traceRun, traceStages } from './tracing.js';

export interface PipelineWiringOptions {
  telemetry?: TelemetryOptions;
  fetch?: Partial<FetchLimits>;
  /** article flows processed at once */
  concurrency?: number;
}

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
    const sources: SourceStore = {
      listEnabled: () => sourceRepo.list({ enabledOnly: true }),
      recordFetch: async (id, patch) => void (await sourceRepo.update(id, patch)),
    };
    const providers = new DrizzleProviderRepository(ctx.db);
    const articles = new DrizzleArticleStore(ctx.db);
    const runs = new DrizzleRunStore(ctx.db);
    const http = new HttpFetcher(opts.fetch);
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
    const bus = new EventBus<PipelineEvents>(handlers, {
      logger: log,
      concurrency: opts.concurrency ?? 16,
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
    let execute = createRunExecutor({ stages, bus, runs, registry, logger: log });
    if (scope) execute = traceRun(scope, execute);

    const scraper = new ScraperService(runs, execute, log);
    // closers run in reverse: the run in progress ends before telemetry flushes and stores close
    ctx.onClose(() => scraper.idle());

    return {
      services: { scraper, ...(telemetry.metricsText ? { metricsText: telemetry.metricsText } : {}) },
      jobs: [{ name: 'scraper', cron: ctx.config.jobs.scraperCron, run: () => scraper.runNow('cron') }],
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
