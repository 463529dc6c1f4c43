import { conflict, messageOf, notFound } from '../../domain/errors.js';
import { ACTIVE_RUN_STATUSES, RUN_STALE_AFTER_MS, normalizeTrigger } from '../../domain/runs.js';
import { currentCorrelationId, newCorrelationId, runWithCorrelation } from '../shared/context.js';
import type { Logger } from '../shared/ports.js';
import type { RunRecord, RunScope, RunStatus, RunStore } from './pipeline.ports.js';
import type { PipelineStages, RunContext, RunInfo } from './pipeline.stages.js';
import type { CloseRun, RunWaiters } from './run-end.js';
import type { RunModels } from './run-models.js';

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

/** One run from discovery to its end (the wiring traces it as scraper.run). */
export type RunExecutor = (run: RunInfo, progress?: ProgressFn) => Promise<RunOutcome>;

export interface ExecutorDeps {
  stages: PipelineStages;
  runs: Pick<RunStore, 'get' | 'holdArticles' | 'releaseArticles'>;
  models: RunModels;
  closeRun: CloseRun;
  waiters: RunWaiters;
  logger: Logger;
  /** aborted when the process stops: the run is closed as interrupted (its articles' jobs go on) */
  signal?: AbortSignal;
  /**
   * How long a run's reads (feeds, pages) may go on once `signal` has aborted: the shutdown's grace
   * period. Then they are abandoned and the run ends as interrupted (default: at once)
   */
  stopGraceMs?: number;
}

/** the error of a run whose reads the stopping process abandoned */
const READS_ABANDONED =
  'interrupted: the process stopped before the run had read its sources (the next run reads them)';

/**
 * A signal that aborts `graceMs` after `stopping` does (at once when it already has); `dispose` lets
 * the run go without it.
 */
function afterGrace(stopping: AbortSignal | undefined, graceMs: number) {
  const controller = new AbortController();
  if (!stopping) return { signal: controller.signal, dispose: () => undefined };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    timer = setTimeout(() => controller.abort(new Error(READS_ABANDONED)), graceMs);
  };
  if (stopping.aborted) stop();
  else stopping.addEventListener('abort', stop, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      stopping.removeEventListener('abort', stop);
    },
  };
}

/**
 * How often a run's process reads its record while it waits for the end. An end written in this
 * process wakes it at once, one written by another process's worker as soon as its NOTIFY arrives
 * (RunWaiters.listen): the record is read each second only to report progress or when that word
 * cannot be heard, else rarely, for word lost with a dropped connection.
 */
const RECHECK_MS = 1000;
const LISTENING_RECHECK_MS = 30_000;

export function createRunExecutor(d: ExecutorDeps): RunExecutor {
  const log = d.logger;
  return async (info, progress) => {
    const started = Date.now();
    const reads = afterGrace(d.signal, d.stopGraceMs ?? 0);
    const run: RunContext = { ...info, counts: {}, signal: reads.signal };
    const { analyzer } = await d.models.forRun(run.id);
    log.info({ event: 'scraper.run.started', run_id: run.id, trigger: run.trigger, analyzer: analyzer.name });
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
    try {
      // the run waits for its own stages as for one more article: it cannot end before publish is done
      await d.runs.holdArticles(run.id);
      const discovery = await stage(
        'discover',
        () => d.stages.discover(run),
        (r) => ({ sources: r.sources.length, discovered: r.entries.length }),
      );
      const candidates = await stage(
        'fetch',
        () => d.stages.fetch(run, discovery),
        (r) => ({ to_fetch: discovery.entries.length, fetched: r.length }),
      );
      const dedup = await stage(
        'dedup',
        () => d.stages.dedup(run, candidates),
        (r) => ({ before: candidates.length, after: r.fresh.length, skipped: r.skipped.length }),
      );
      await stage(
        'publish',
        () => d.stages.publish(run, dedup.fresh),
        (r) => ({ published: r.published }),
      );
      // no new article, or every one already done: the run ends here; else its last job ends it
      if (await d.runs.releaseArticles(run.id, run.counts))
        await d.closeRun({ runId: run.id, status: 'completed', error: null });
    } catch (err) {
      const error = messageOf(err);
      if (reads.signal.aborted) log.warn({ event: 'scraper.run.failed', run_id: run.id, error });
      else log.error({ event: 'scraper.run.failed', run_id: run.id, error, err });
      await d.closeRun({ runId: run.id, status: 'failed', error, counts: run.counts });
    } finally {
      reads.dispose();
    }
    const end = await waitForEnd(d, run.id, progress);
    progress?.({ stage: 'done', done: 1, total: 1 });
    return { ...end, durationMs: Date.now() - started };
  };
}

/**
 * Waits for the run's end, wherever it is written, reporting the articles' progress from the run
 * record. When the process stops first, the run is closed as interrupted (its jobs go on).
 */
async function waitForEnd(
  d: ExecutorDeps,
  runId: string,
  progress?: ProgressFn,
): Promise<Omit<RunOutcome, 'durationMs'>> {
  // watched and listened for before the record is read: an end written in between is not missed
  const watch = d.waiters.watch(runId);
  const heard = await d.waiters.listen();
  const recheck = progress || !heard ? RECHECK_MS : LISTENING_RECHECK_MS;
  let closing = false;
  try {
    for (;;) {
      const run = await d.runs.get(runId);
      if (!run) throw new Error(`run ${runId} no longer exists`);
      if (!ACTIVE_RUN_STATUSES.includes(run.status))
        return { status: run.status as RunOutcome['status'], counts: run.counts, error: run.error };
      progress?.({ stage: 'articles', done: run.progress.done, total: run.progress.total });
      if (d.signal?.aborted && !closing) {
        // once: if another process is ending the run right now, its end is the one to wait for
        closing = true;
        const pending = run.progress.total - run.progress.done;
        const error = `interrupted: the process stopped with ${pending} article(s) still queued (their jobs go on)`;
        if (await d.closeRun({ runId, status: 'failed', error })) continue;
      }
      const ended = await Promise.race([watch.next(), pause(recheck, closing ? undefined : d.signal)]);
      if (ended) return ended;
    }
  } finally {
    watch.stop();
  }
}

/** resolves null after `ms` or when `signal` aborts; its timer never keeps the process alive */
const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<null>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve(null);
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal?.addEventListener('abort', done, { once: true });
  });

/** GET /admin/scraper/runs/{id} keeps its three statuses for existing clients (docs/decisions/0051-runs-as-records.md) */
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

  /** a run of this process is under way */
  get busy(): boolean {
    return this.current !== null;
  }

  /** resolves when the run in progress (if any) has ended: shutdown waits for it */
  async idle(): Promise<void> {
    await this.current?.catch(() => undefined);
  }

  private async launch(trigger: string, progress?: ProgressFn, scope?: RunScope) {
    if (this.current) throw busy();
    const correlationId = currentCorrelationId() ?? newCorrelationId();
    let release!: () => void;
    this.current = new Promise<void>((resolve) => (release = resolve));
    try {
      // another process (a worker, the CLI on PostgreSQL) may be scraping: checked and recorded in one step
      const run = await this.runs.createExclusive(
        { trigger: normalizeTrigger(trigger), correlationId, kind: 'scrape' },
        new Date(Date.now() - RUN_STALE_AFTER_MS),
      );
      if (!run) throw busy();
      const info: RunInfo = { id: run.id, correlationId, trigger, ...(scope ? { scope } : {}) };
      // the run record counts its articles as they are stored and finished (the stages before them
      // show as "starting")
      const done = runWithCorrelation(correlationId, () => this.execute(info, progress)).catch(
        async (err: unknown): Promise<RunOutcome> => {
          const error = messageOf(err);
          this.logger.error({ event: 'scraper.run.failed', run_id: run.id, error, err });
          await this.runs.finish(run.id, { status: 'failed', counts: {}, error }).catch(() => undefined);
          return { status: 'failed', counts: {}, error, durationMs: 0 };
        },
      );
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

const busy = () => conflict('a scraper run is already in progress', 'run_in_progress');
