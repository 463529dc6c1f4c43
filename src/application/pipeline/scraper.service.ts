import { conflict, notFound } from '../../domain/errors.js';
import { currentCorrelationId, newCorrelationId, runWithCorrelation } from '../shared/context.js';
import type { Logger } from '../shared/ports.js';
import type { ArticleJobData, ArticleJobs, ArticleStates } from './article-jobs.js';
import type { EventBatch, EventBus } from './event-bus.js';
import { normalizeTrigger } from '../../domain/runs.js';
import { RunRecorder } from '../runs/run-recorder.js';
import type { PipelineEvents } from './pipeline.events.js';
import type { RunRecord, RunScope, RunStatus, RunStore } from './pipeline.ports.js';
import type { PipelineStages, RunInfo } from './pipeline.stages.js';
import type { RunRegistry } from './run-registry.js';

export interface RunProgress {
  stage: 'discover' | 'fetch' | 'dedup' | 'publish' | 'articles' | 'done';
  done: number;
  total: number;
}
export type ProgressFn = (p: RunProgress) => void;

export interface RunOutcome {
  status: Exclude<RunStatus, 'running'>;
  counts: Record<string, number>;
  error: string | null;
  durationMs: number;
}

/** One run from discovery to the pipeline-completed handlers (the wiring traces it as scraper.run). */
export type RunExecutor = (run: RunInfo, progress?: ProgressFn) => Promise<RunOutcome>;

export interface ExecutorDeps {
  stages: PipelineStages;
  bus: EventBus<PipelineEvents>;
  runs: Pick<RunStore, 'finish'>;
  registry: RunRegistry;
  /** the article jobs the publish stage's articles go to */
  jobs: ArticleJobs;
  /** the run's articles' stored outcomes: what the run waits for and counts at its end */
  states: ArticleStates;
  logger: Logger;
  /** aborted when the process stops: a run stops waiting for its articles (their jobs go on) */
  signal?: AbortSignal;
  /** how often a run reads its articles' progress (ms) */
  pollMs?: number;
  /** a run whose articles made no progress for this long ends without them (ms) */
  stallMs?: number;
}

/** What the publish stage publishes is collected here and sent as durable jobs. */
function collector(): EventBatch<PipelineEvents> & { scraped: ArticleJobData[] } {
  const scraped: ArticleJobData[] = [];
  return {
    scraped,
    publish: (name, payload) => {
      if (name === 'article.scraped') scraped.push(payload as ArticleJobData);
    },
    size: () => scraped.length,
    drain: () => Promise.resolve(),
  };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export function createRunExecutor(d: ExecutorDeps): RunExecutor {
  const log = d.logger;
  return async (run, progress) => {
    const started = Date.now();
    const state = await d.registry.open(run.id);
    log.info({
      event: 'scraper.run.started',
      run_id: run.id,
      trigger: run.trigger,
      analyzer: state.analyzer.name,
    });
    const stage = async <T>(
      name: RunProgress['stage'],
      fn: () => Promise<T>,
      counts: (r: T) => Record<string, number>,
    ) => {
      const t0 = Date.now();
      progress?.({ stage: name, done: 0, total: 1 });
      const result = await fn();
      log.info({
        event: 'pipeline.stage.completed',
        run_id: run.id,
        stage: name,
        duration_ms: Date.now() - t0,
        counts: counts(result),
      });
      progress?.({ stage: name, done: 1, total: 1 });
      return result;
    };
    let status: RunOutcome['status'] = 'completed';
    let error: string | null = null;
    let articleCounts: Record<string, number> = {};
    try {
      const discovery = await stage(
        'discover',
        () => d.stages.discover(run),
        (r) => ({
          sources: r.sources.length,
          discovered: r.entries.length,
        }),
      );
      const candidates = await stage(
        'fetch',
        () => d.stages.fetch(run, discovery),
        (r) => ({
          to_fetch: discovery.entries.length,
          fetched: r.length,
        }),
      );
      const dedup = await stage(
        'dedup',
        () => d.stages.dedup(run, candidates),
        (r) => ({
          before: candidates.length,
          after: r.fresh.length,
          skipped: r.skipped.length,
        }),
      );
      const batch = collector();
      const { published } = await stage(
        'publish',
        () => d.stages.publish(run, dedup.fresh, batch),
        (r) => ({
          published: r.published,
        }),
      );
      // this process works on article jobs while its run waits for them (api and CLI processes too)
      await d.jobs.start();
      // stored articles whose jobs a crash kept from being sent are found by the start-up sweep
      await d.jobs.enqueue(batch.scraped);
      progress?.({ stage: 'articles', done: 0, total: published });
      const waited = await waitForArticles(d, run.id, published, progress);
      articleCounts = waited.counts;
      if (waited.interrupted) {
        status = 'failed';
        error = `interrupted: the process stopped with ${waited.pending} article(s) still queued (their jobs go on)`;
      } else if (waited.pending) articleCounts.articles_pending = waited.pending;
    } catch (err) {
      status = 'failed';
      error = err instanceof Error ? err.message : String(err);
      log.error({ event: 'scraper.run.failed', run_id: run.id, error, err });
    }
    const counts = { ...state.counts, ...articleCounts };
    const durationMs = Date.now() - started;
    try {
      const done = d.bus.batch();
      done.publish('scraper.pipeline_completed', {
        runId: run.id,
        correlationId: run.correlationId,
        status,
        durationMs,
        counts,
      });
      await done.drain();
      await d.runs.finish(run.id, { status, counts, error });
    } finally {
      d.registry.close(run.id);
    }
    log.info({ event: 'scraper.run.completed', run_id: run.id, status, duration_ms: durationMs, counts });
    progress?.({ stage: 'done', done: 1, total: 1 });
    return { status, counts, error, durationMs };
  };
}

/**
 * Waits until every article the run stored reached a final state (on any worker), reporting
 * progress; stops early when the process stops or nothing moved for `stallMs`.
 */
async function waitForArticles(
  d: ExecutorDeps,
  runId: string,
  total: number,
  progress?: ProgressFn,
): Promise<{ counts: Record<string, number>; pending: number; interrupted: boolean }> {
  const pollMs = d.pollMs ?? 100;
  const stallMs = d.stallMs ?? 15 * 60_000;
  let last = -1;
  let movedAt = Date.now();
  for (;;) {
    const { pending, counts } = await d.states.summarize(runId);
    if (pending !== last) {
      movedAt = Date.now();
      last = pending;
      progress?.({ stage: 'articles', done: Math.max(0, total - pending), total });
    }
    if (pending === 0 || Date.now() - movedAt > stallMs) return { counts, pending, interrupted: false };
    if (d.signal?.aborted) return { counts, pending, interrupted: true };
    await sleep(pollMs, d.signal);
  }
}
/** GET /admin/scraper/runs/{id} keeps its three statuses (DESIGN.md §4, "kept for compatibility") */
export type LegacyRunStatus = 'running' | 'completed' | 'failed';
const LEGACY_STATUS: Record<RunStatus, LegacyRunStatus> = {
  queued: 'running',
  running: 'running',
  completed: 'completed',
  completed_with_errors: 'completed',
  failed: 'failed',
  interrupted: 'failed',
};

export interface RunView {
  id: string;
  status: LegacyRunStatus;
  started_at: string;
  finished_at: string | null;
  counts: Record<string, number>;
}

const view = (r: RunRecord): RunView => ({
  id: r.id,
  status: LEGACY_STATUS[r.status],
  started_at: r.startedAt.toISOString(),
  finished_at: r.finishedAt?.toISOString() ?? null,
  counts: r.counts,
});

/** Starts runs (one at a time per process) and reports them. */
export class ScraperService {
  private current: Promise<unknown> | null = null;

  constructor(
    private readonly runs: RunStore,
    private readonly execute: RunExecutor,
    private readonly logger: Logger,
  ) {}

  /**
   * Starts a run in the background and answers its id at once (POST /admin/scraper/runs; with a
   * source scope, POST /admin/sources/{id}/fetch).
   */
  async start(trigger = 'admin', scope?: RunScope): Promise<{ run_id: string }> {
    const { run, done } = await this.launch(trigger, undefined, scope);
    void done;
    return { run_id: run.id };
  }

  /** Runs to the end (CLI, cron; the cron reads only the sources that are due). */
  async runNow(
    trigger: string,
    progress?: ProgressFn,
    scope?: RunScope,
  ): Promise<RunView & { error: string | null }> {
    const { run, done } = await this.launch(trigger, progress, scope);
    const outcome = await done;
    return {
      ...view({ ...run, status: outcome.status, counts: outcome.counts, finishedAt: new Date() }),
      error: outcome.error,
    };
  }

  async get(id: string): Promise<RunView> {
    const run = await this.runs.get(id);
    if (!run) throw notFound('scraper run');
    return view(run);
  }

  /** resolves when the run in progress (if any) has ended: shutdown waits for it */
  async idle(): Promise<void> {
    await this.current?.catch(() => undefined);
  }

  private async launch(trigger: string, progress?: ProgressFn, scope?: RunScope) {
    if (this.current) throw conflict('a scraper run is already in progress', 'run_in_progress');
    const correlationId = currentCorrelationId() ?? newCorrelationId();
    let release!: () => void;
    this.current = new Promise<void>((resolve) => (release = resolve));
    try {
      const run = await this.runs.create({
        trigger: normalizeTrigger(trigger),
        correlationId,
        kind: 'scrape',
      });
      const info: RunInfo = { id: run.id, correlationId, trigger, ...(scope ? { scope } : {}) };
      const recorder = new RunRecorder(run.id, this.runs, this.logger);
      const track: ProgressFn = (p) => {
        progress?.(p);
        // the run record counts articles; the stages before them show as "starting"
        if (p.stage === 'articles') recorder.setProgress(p.done, p.total);
      };
      const done = runWithCorrelation(correlationId, async () => {
        try {
          return await this.execute(info, track);
        } finally {
          await recorder.flush();
        }
      }).catch(async (err: unknown): Promise<RunOutcome> => {
        const error = err instanceof Error ? err.message : String(err);
        this.logger.error({ event: 'scraper.run.failed', run_id: run.id, error, err });
        await this.runs.finish(run.id, { status: 'failed', counts: {}, error }).catch(() => undefined);
        return { status: 'failed', counts: {}, error, durationMs: 0 };
      });
      void done.finally(() => {
        this.current = null;
        release();
      });
      return { run, done };
    } catch (err) {
      this.current = null;
      release();
      throw err;
    }
  }
}
