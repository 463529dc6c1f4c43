import { conflict, invalid, notFound } from '../../domain/errors.js';
import {
  RUN_KINDS,
  RUN_STALE_AFTER_MS,
  RUN_STATUSES,
  endStatus,
  normalizeTrigger,
  type RunKind,
  type RunStatus,
  type RunTrigger,
} from '../../domain/runs.js';
import { isUuid } from '../../domain/text.js';
import { currentCorrelationId, newCorrelationId, runWithCorrelation } from '../shared/context.js';
import type { Clock, Logger } from '../shared/ports.js';
import type { LlmUsageStore, LlmUsageTotals } from '../shared/llm-usage.js';
import { RunRecorder } from './run-recorder.js';
import type { RunRecord, RunRepository } from './runs.ports.js';

export interface RunErrorView {
  source_id?: string;
  article_id?: string;
  /** the failed article's title (absent when the article is gone) */
  article_title?: string;
  topic_id?: string;
  message: string;
}

/** GET /admin/runs items (docs/decisions/0051-runs-as-records.md): the run without its item errors */
export interface RunSummaryView {
  id: string;
  kind: RunKind;
  status: RunStatus;
  trigger: RunTrigger;
  started_at: string;
  finished_at: string | null;
  progress: { done: number; total: number };
  summary: Record<string, string | number | null>;
  /** why the whole run failed or was interrupted */
  error: string | null;
  /** how many items failed (the first RUN_ERRORS_KEPT are listed in the detail) */
  error_count: number;
}

/** GET /admin/runs/{id} */
export interface RunView extends RunSummaryView {
  errors: RunErrorView[];
  /** what the run's model calls cost, in all and per purpose (analysis, translation, report...) */
  llm: LlmUsageTotals & { by_purpose: ({ purpose: string } & LlmUsageTotals)[] };
}

/** What a job reports while it works. */
export interface RunTracker {
  progress(done: number, total: number): void;
  error(e: { sourceId?: string; articleId?: string; topicId?: string; message: string }): void;
}

/** What a job answers when it ends; it throws when the whole run failed. */
export interface JobResult {
  summary: Record<string, string | number | null>;
}

export type Job = (tracker: RunTracker) => Promise<JobResult>;

const DETAIL_ERRORS = 500;

const summaryView = (r: RunRecord): RunSummaryView => ({
  id: r.id,
  kind: r.kind,
  status: r.status,
  trigger: normalizeTrigger(r.trigger),
  started_at: r.startedAt.toISOString(),
  finished_at: r.finishedAt?.toISOString() ?? null,
  progress: r.progress,
  summary: r.summary,
  error: r.error,
  error_count: r.errorCount,
});

/**
 * Runs of every kind as records: starts a job in the background as a run (202 {run_id}) or to its
 * end (CLI, cron), records its progress and item errors, lists and shows runs.
 */
export class RunsService {
  /** the runs this process is working on, by id */
  private readonly active = new Map<string, { kind: RunKind; done: Promise<unknown> }>();

  constructor(
    private readonly runs: RunRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly usage?: Pick<LlmUsageStore, 'forRun'>,
  ) {}

  async list(q: { kind?: string; status?: string; limit?: number; offset?: number }) {
    if (q.kind !== undefined && !(RUN_KINDS as readonly string[]).includes(q.kind))
      throw invalid(`kind must be one of ${RUN_KINDS.join(', ')}`, 'invalid_kind');
    if (q.status !== undefined && !(RUN_STATUSES as readonly string[]).includes(q.status))
      throw invalid(`status must be one of ${RUN_STATUSES.join(', ')}`, 'invalid_status');
    const limit = q.limit ?? 20;
    const offset = q.offset ?? 0;
    const page = await this.runs.list({
      kind: q.kind as RunKind | undefined,
      status: q.status as RunStatus | undefined,
      limit,
      offset,
    });
    return { items: page.items.map(summaryView), total: page.total, limit, offset };
  }

  async get(id: string): Promise<RunView> {
    if (!isUuid(id)) throw notFound('run', 'run_not_found');
    const run = await this.runs.get(id);
    if (!run) throw notFound('run', 'run_not_found');
    const [errors, byPurpose] = await Promise.all([
      this.runs.errors(id, DETAIL_ERRORS),
      this.usage?.forRun(id) ?? Promise.resolve([]),
    ]);
    const sum = (k: keyof LlmUsageTotals) => byPurpose.reduce((n, p) => n + p[k], 0);
    return {
      ...summaryView(run),
      llm: {
        calls: sum('calls'),
        prompt_tokens: sum('prompt_tokens'),
        completion_tokens: sum('completion_tokens'),
        by_purpose: byPurpose,
      },
      errors: errors.map((e) => ({
        ...(e.sourceId ? { source_id: e.sourceId } : {}),
        ...(e.articleId ? { article_id: e.articleId } : {}),
        ...(e.articleTitle ? { article_title: e.articleTitle } : {}),
        ...(e.topicId ? { topic_id: e.topicId } : {}),
        message: e.message,
      })),
    };
  }

  /**
   * Starts the job as a run and answers its id at once; the job goes on in the background.
   * 409 while a run of the same kind is under way (here or in another process).
   */
  async start(kind: RunKind, trigger: string, job: Job): Promise<{ run_id: string }> {
    const { id } = await this.launch(kind, trigger, job);
    return { run_id: id };
  }

  /** Runs the job to its end (CLI, cron) and answers the finished run. */
  async runToEnd(kind: RunKind, trigger: string, job: Job): Promise<RunView> {
    const { id, done } = await this.launch(kind, trigger, job);
    await done;
    return this.get(id);
  }

  /** Closes the runs a dead process left queued or running (called at start). */
  async closeInterrupted(opts: { exclusiveDatabase: boolean }): Promise<number> {
    const closed = await this.runs.closeInterrupted({
      all: opts.exclusiveDatabase,
      staleBefore: new Date(this.clock.now().getTime() - RUN_STALE_AFTER_MS),
    });
    if (closed) this.logger.warn({ event: 'run.interrupted_closed', runs: closed });
    return closed;
  }

  /** the kinds of the runs this process is working on (what a shutdown waits for) */
  activeKinds(): RunKind[] {
    return [...new Set([...this.active.values()].map((r) => r.kind))];
  }

  /** resolves when the runs this process started have ended: shutdown waits for them */
  async idle(): Promise<void> {
    await Promise.all([...this.active.values()].map((r) => r.done.catch(() => undefined)));
  }

  private async launch(kind: RunKind, trigger: string, job: Job) {
    if ([...this.active.values()].some((r) => r.kind === kind)) throw busy(kind);
    const correlationId = currentCorrelationId() ?? newCorrelationId();
    // one step in the database: two starts at the same moment (here or elsewhere) cannot both pass
    const run = await this.runs.createExclusive(
      { kind, trigger: normalizeTrigger(trigger), correlationId, status: 'running' },
      new Date(this.clock.now().getTime() - RUN_STALE_AFTER_MS),
    );
    if (!run) throw busy(kind);
    const done = runWithCorrelation(correlationId, () => this.execute(run, job));
    this.active.set(run.id, { kind, done });
    void done.finally(() => this.active.delete(run.id));
    return { id: run.id, done };
  }

  private async execute(run: RunRecord, job: Job): Promise<void> {
    const started = Date.now();
    const log = this.logger;
    const recorder = new RunRecorder(run.id, this.runs, log);
    log.info({ event: 'run.started', run_id: run.id, kind: run.kind, trigger: run.trigger });
    let status: RunStatus;
    let error: string | null = null;
    let summary: JobResult['summary'] = {};
    try {
      summary = (
        await job({
          progress: (done, total) => recorder.setProgress(done, total),
          error: (e) => recorder.error(e),
        })
      ).summary;
      status = endStatus(recorder.errorTotal);
    } catch (err) {
      status = 'failed';
      error = err instanceof Error ? err.message : String(err);
      log.error({ event: 'run.failed', run_id: run.id, kind: run.kind, error, err });
    }
    await recorder.flush();
    await this.finishRun(run.id, { status, counts: {}, error, summary });
    log.info({
      event: 'run.completed',
      run_id: run.id,
      kind: run.kind,
      status,
      errors: recorder.errorTotal,
      duration_ms: Date.now() - started,
    });
  }

  /**
   * Writes the run's end. A write refused by a passing database fault (a dropped connection, a pool
   * that timed out under load) is tried again for about a minute: a run whose end is not written
   * shows as running. If it still fails the repository no longer beats its heartbeat, so the sweep
   * closes it as interrupted (RunRepository.finish).
   */
  private async finishRun(id: string, result: Parameters<RunRepository['finish']>[1]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.runs.finish(id, result);
        return;
      } catch (err) {
        const last = attempt >= FINISH_ATTEMPTS;
        this.logger[last ? 'error' : 'warn']({ event: 'run.finish_failed', run_id: id, attempt, err });
        if (last) return;
        await new Promise((r) => setTimeout(r, Math.min(500 * 2 ** (attempt - 1), 15_000)));
      }
    }
  }
}

/** 0.5 + 1 + 2 + 4 + 8 + 15 + 15 + 15 s between the attempts: about a minute */
const FINISH_ATTEMPTS = 9;

const busy = (kind: RunKind) =>
  conflict(`a ${kind} run is already in progress`, kind === 'scrape' ? 'run_in_progress' : 'job_running');
