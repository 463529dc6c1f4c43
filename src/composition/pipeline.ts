import { articleFlow, articleSteps } from '../application/pipeline/article-flow.js';
import { ArticleJobs } from '../application/pipeline/article-jobs.js';
import { DeadJobsService } from '../application/pipeline/dead-jobs.service.js';
import type { SourceStore } from '../application/pipeline/pipeline.ports.js';
import { createStages } from '../application/pipeline/pipeline.stages.js';
import { RunWaiters, createCloseRun, runEndSteps } from '../application/pipeline/run-end.js';
import { RunModels, resolveModel } from '../application/pipeline/run-models.js';
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
import { runEndSignals } from '../infrastructure/db/repositories/run.repository.js';
import { DrizzleSourceFetchRepository } from '../infrastructure/db/repositories/source-fetch.repository.js';
import { withTraceContext } from '../infrastructure/tracing/job-trace.js';
import { HttpFeedReader, HttpPageReader } from '../infrastructure/feeds/feed-reader.js';
import { HttpFetcher, type FetchLimits } from '../infrastructure/feeds/http-fetcher.js';
import { inProcessParsing, ParsePool, type ParsePoolOptions } from '../infrastructure/feeds/parse-pool.js';
import { OutboundGuard } from '../infrastructure/http/outbound-guard.js';
import { withArticlePipelineSpan, type TraceScope } from '../infrastructure/tracing/span-wrappers.js';
import type { TelemetryOptions } from '../infrastructure/tracing/telemetry.js';
import { configuredSecrets } from './secrets.js';
import { sendingRunFailures } from './webhooks.js';
import type { WebhookDeliveries } from '../application/webhooks/webhook-delivery.js';
import type { AreaWiring, WiringContext } from './context.js';
import {
  setupTelemetry,
  traceArticleSteps,
  traceCloseRun,
  traceRun,
  traceRunEndSteps,
  traceStages,
} from './tracing.js';

/** What the roles take from the process's telemetry besides the spans. */
export interface TelemetryHandle {
  /** the instruments in Prometheus' text format (GET /metrics); null unless METRICS_COLLECTOR is on */
  metricsText: (() => Promise<string>) | null;
  /** exports the spans and log records held now (nothing to do when export is off) */
  flush(): Promise<void>;
}

export interface PipelineWiringOptions {
  telemetry?: TelemetryOptions;
  fetch?: Partial<FetchLimits>;
  /** article flows processed at once (default JOB_CONCURRENCY) */
  concurrency?: number;
  /** the threads, time limit and idle stop of the feed and page parsing (defaults of ParsePool) */
  parse?: ParsePoolOptions;
}

/**
 * Feed keys a de-duplication statement looks up on PGlite, where each statement holds the event
 * loop: 50 keep one under a few milliseconds (PostgreSQL takes 500, the repository's default).
 */
const EMBEDDED_KEY_CHUNK = 50;

/**
 * A run's skips written per statement on PGlite: 25 rows take ~1-3 ms of the loop. 100 took about
 * 2.5 ms on a fast machine and up to 13 ms on a slow one, the longest statement of a run that finds
 * its items known (health.during_parse, docs/performance.md session 33); 500 is the PostgreSQL part.
 */
const EMBEDDED_SKIP_CHUNK = 25;

/** how often every unfinished article is given a job if it has none (besides at start) */
const SWEEP_CRON = '*/10 * * * *';

/**
 * The scraper pipeline: the run's stages, the article jobs and the run's end, traced from outside
 * when MONITOR_OTLP_* are set (the application code never sees a span). Tags articles through the
 * tags area's ArticleTagger.
 */
export const wirePipeline = async (
  ctx: WiringContext,
  {
    tagger,
    webhooks,
    onPublished,
  }: {
    tagger: ArticleTagger;
    webhooks?: WebhookDeliveries;
    /** new articles were stored (the metrics area looks up their citations) */
    onPublished?: (count: number) => void;
  },
  opts: PipelineWiringOptions = {},
): Promise<
  AreaWiring<'scraper' | 'deadJobs'> & {
    /** the process's trace scope (null without telemetry), for the spans of other areas */
    scope: TraceScope | null;
    telemetry: TelemetryHandle;
  }
> => {
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
  const articles = new DrizzleArticleStore(ctx.db, {
    keyChunk: ctx.database.kind === 'pglite' ? EMBEDDED_KEY_CHUNK : undefined,
  });
  const runs = sendingRunFailures(
    new DrizzleRunStore(ctx.db, configuredSecrets(ctx.config), {
      skipChunk: ctx.database.kind === 'pglite' ? EMBEDDED_SKIP_CHUNK : undefined,
    }),
    webhooks,
  );
  const http = new HttpFetcher(opts.fetch, new OutboundGuard(ctx.config.fetch.allowedHosts));
  ctx.onClose(() => http.close());
  // The built service parses feeds and pages in worker threads, started by the first parse. From
  // the TypeScript sources (tsx: tests, `cli` in development) a worker must register tsx's loader
  // before it can parse; in a loaded test run that once held a first fetch for a minute, so there
  // the parse stays in process unless `parse` asks for the pool (its own tests and benches do).
  const pool = opts.parse || import.meta.url.endsWith('.js') ? new ParsePool(opts.parse) : null;
  if (pool) ctx.onClose(() => pool.close());
  const parsing = pool ?? inProcessParsing;
  const models = new RunModels(() => resolveModel(providers, ctx.llm), log);
  const states = new DrizzleArticleStates(ctx.db);
  const jobsConfig = ctx.config.jobs;
  const concurrency = opts.concurrency ?? jobsConfig.concurrency;

  // a run's end: written once, by whichever process finishes its last article
  let endSteps = runEndSteps({
    metrics: telemetry.metrics,
    messenger: ctx.messenger,
    opsChatId: ctx.config.telegram.opsChatId,
    logger: log,
  });
  if (scope) endSteps = traceRunEndSteps(scope, endSteps);
  const waiters = new RunWaiters({ signals: runEndSignals(ctx.database), logger: log });
  ctx.onClose(() => waiters.close());
  let closeRun = createCloseRun({ runs, states, steps: endSteps, waiters, logger: log });
  if (scope) closeRun = traceCloseRun(scope, closeRun);

  // an article's steps, top-down, in one job
  let steps = articleSteps({
    articles,
    tagger,
    models,
    logger: log,
  });
  if (scope) steps = traceArticleSteps(scope, steps);
  let flow = articleFlow(steps, log, webhooks && ((id) => webhooks.articlePublished(id)));
  if (scope) flow = withArticlePipelineSpan(scope, flow);
  const jobs = new ArticleJobs({
    // a job carries the trace context of its run: article.pipeline continues the run's trace
    queue: scope ? withTraceContext(scope, ctx.queue) : ctx.queue,
    articles,
    states,
    flow,
    closeRun,
    logger: log,
    retryLimit: jobsConfig.retryLimit,
    retryDelaySeconds: jobsConfig.retryDelaySeconds,
    concurrency,
  });

  let stages = createStages({
    sources,
    feeds: new HttpFeedReader(http, parsing),
    pages: new HttpPageReader(http, parsing),
    articles,
    runs,
    jobs,
    logger: log,
    now: () => ctx.clock.now(),
    onPublished,
  });
  if (scope) stages = traceStages(scope, stages);
  const stopping = new AbortController();
  let execute = createRunExecutor({
    stages,
    runs,
    models,
    closeRun,
    waiters,
    logger: log,
    signal: stopping.signal,
    stopGraceMs: jobsConfig.shutdownGraceSeconds * 1000,
  });
  if (scope) execute = traceRun(scope, execute);

  const scraper = new ScraperService(runs, execute, log);
  /**
   * SIGTERM: a run stops waiting for its articles (their jobs go on) and its reads in flight get the
   * grace period to end (then they are abandoned and the run ends interrupted); running jobs get
   * what is left of it to finish and the rest are handed back to the queue, before telemetry flushes.
   */
  const drain = async () => {
    // one grace period for both, as the signal's line says: what the run took of it is not given
    // to the jobs again (pg-boss's stop takes a second at least)
    const deadline = Date.now() + jobsConfig.shutdownGraceSeconds * 1000;
    stopping.abort();
    await scraper.idle();
    await ctx.queue.stop(Math.max(1000, deadline - Date.now()));
  };
  // closers run in reverse: this one before telemetry flushes and the stores close
  ctx.onClose(drain);

  return {
    scope,
    services: {
      scraper,
      deadJobs: new DeadJobsService(ctx.queue),
    },
    telemetry: { metricsText: telemetry.metricsText, flush: () => telemetry.flush() },
    jobs: [
      // the schedule reads the sources that are due by their fetch interval
      {
        name: 'scraper',
        cron: jobsConfig.scraperCron,
        run: () => scraper.runNow('cron', undefined, { kind: 'due' }),
      },
      {
        name: 'article-sweep',
        cron: SWEEP_CRON,
        run: async () => {
          await jobs.sweep();
          // a run whose last job could not write its end (the database was away) ends now
          for (const runId of await runs.endedOpen())
            await closeRun({ runId, status: 'completed', error: null });
        },
      },
    ],
    workers: [
      {
        name: 'article-jobs',
        start: () =>
          void jobs.start().catch((err: unknown) => log.error({ event: 'pipeline.jobs.start_failed', err })),
        ready: () => jobs.start(),
        stop: drain,
      },
    ],
  };
};
