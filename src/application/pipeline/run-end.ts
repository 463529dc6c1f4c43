/**
 * A scrape run's end, written once by whichever process gets there: the job of its last pending
 * article (article-jobs.ts), the run's own process when it stored no new article, failed or was
 * stopped, or the sweep for a run whose last job could not write it. The caller first takes the
 * end in the run's row (RunStore.claimEnd, one of them wins), then runs the pipeline-completed
 * steps and writes the record: `scraper.pipeline_completed` happens once per run.
 */
import { messageOf } from '../../domain/errors.js';
import type { Messenger } from '../shared/messenger.js';
import type { Logger } from '../shared/ports.js';
import type { PipelineCompletedEvent } from './pipeline.events.js';
import type { ArticleStates, PipelineMetrics, RunEndSignals, RunStore } from './pipeline.ports.js';

export interface RunClosing {
  runId: string;
  /** `completed`: ended by its last article (nothing may be pending); `failed`: whatever is */
  status: PipelineCompletedEvent['status'];
  error: string | null;
  /** counts the run record does not hold yet (a run that failed before its publish stage ended) */
  counts?: Record<string, number>;
  /** the W3C trace context of the run (a job's): the completed steps' spans join its trace */
  traceparent?: string;
}

/** Ends the run if it is still open; true when this call ended it. */
export type CloseRun = (c: RunClosing) => Promise<boolean>;

/** The steps of a run's end, named after their spans (`scraper.pipeline_completed.handle`, `.notify`). */
export interface RunEndSteps {
  /** pushes the run's figures to the metrics store */
  handle(e: PipelineCompletedEvent): Promise<void>;
  /** tells the operators' chat, when one is configured */
  notify(e: PipelineCompletedEvent): Promise<void>;
}

export function runEndSteps(d: {
  metrics: PipelineMetrics;
  messenger: Messenger;
  /** TELEGRAM_OPS_CHAT_ID */
  opsChatId: string | undefined;
  logger: Logger;
}): RunEndSteps {
  return {
    async handle(e) {
      await d.metrics.recordRun(e);
      d.logger.info({
        event: 'scraper.metrics.pushed',
        run_id: e.runId,
        counts: e.counts,
        duration_ms: e.durationMs,
      });
    },
    async notify(e) {
      if (!d.opsChatId || !d.messenger.configured) return;
      await d.messenger.send(d.opsChatId, runNotice(e), { disablePreview: true });
      d.logger.info({ event: 'scraper.notification.sent', run_id: e.runId });
    },
  };
}

/** How a run ended, as its waiters in this process hear it. */
export interface RunEnded {
  status: PipelineCompletedEvent['status'];
  counts: Record<string, number>;
  error: string | null;
}

/** One waiter of a run: its end when written in this process, a nudge when word came from elsewhere. */
class Watch {
  private ended: RunEnded | undefined;
  private nudged = false;
  private signal: (() => void) | undefined;

  end(e: RunEnded): void {
    this.ended ??= e;
    this.fire();
  }

  nudge(): void {
    this.nudged = true;
    this.fire();
  }

  private fire(): void {
    const signal = this.signal;
    this.signal = undefined;
    signal?.();
  }

  /** the run's end when this process wrote it; null when another may have (read the record) */
  next(): Promise<RunEnded | null> {
    if (this.ended) return Promise.resolve(this.ended);
    if (this.nudged) {
      this.nudged = false;
      return Promise.resolve(null);
    }
    return new Promise((resolve) => (this.signal = () => resolve(this.next())));
  }
}

/**
 * Tells a run's watchers in this process when the run ends: with its end when this process wrote
 * it, with a nudge to read the record when another process's word arrives (`signals`).
 */
export class RunWaiters {
  private readonly watching = new Map<string, Set<Watch>>();
  private listening: Promise<(() => Promise<void>) | null> | undefined;
  private closed = false;

  constructor(private readonly elsewhere?: { signals: RunEndSignals; logger: Logger }) {}

  /** from now on: `next` resolves when the run ends here or word of it comes; `stop` when no longer needed */
  watch(runId: string): { next(): Promise<RunEnded | null>; stop(): void } {
    const w = new Watch();
    const set = this.watching.get(runId) ?? new Set();
    this.watching.set(runId, set);
    set.add(w);
    return {
      next: () => w.next(),
      stop: () => {
        set.delete(w);
        if (!set.size && this.watching.get(runId) === set) this.watching.delete(runId);
      },
    };
  }

  wake(runId: string, ended: RunEnded): void {
    for (const w of this.watching.get(runId) ?? []) w.end(ended);
  }

  /**
   * Listens for ends written by other processes (once; again after a failure). True when their word
   * will nudge the watchers, false when the caller must read the record now and then instead.
   */
  async listen(): Promise<boolean> {
    if (!this.elsewhere || this.closed) return false;
    const { signals, logger } = this.elsewhere;
    const listening = (this.listening ??= signals
      .listen((runId) => {
        const ids = runId === null ? [...this.watching.keys()] : [runId];
        for (const id of ids) for (const w of this.watching.get(id) ?? []) w.nudge();
      })
      .catch((err: unknown) => {
        logger.warn({ event: 'scraper.run_ends.listen_failed', error: messageOf(err) });
        this.listening = undefined;
        return null;
      }));
    return (await listening) !== null;
  }

  /** stops listening (the process is closing) */
  async close(): Promise<void> {
    this.closed = true;
    const stop = await this.listening;
    this.listening = undefined;
    await stop?.();
  }
}

export interface RunEndDeps {
  runs: Pick<RunStore, 'get' | 'claimEnd' | 'finish'>;
  states: Pick<ArticleStates, 'summarize'>;
  steps: RunEndSteps;
  waiters: RunWaiters;
  logger: Logger;
}

export function createCloseRun(d: RunEndDeps): CloseRun {
  const log = d.logger;
  const close: CloseRun = async (c) => {
    if (!(await d.runs.claimEnd(c.runId, c.status === 'completed'))) return false;
    try {
      return await end(c);
    } catch (err) {
      // the end is taken: nobody else writes it, so this caller at least records the failure
      const error = `the run's end could not be written: ${messageOf(err)}`;
      await d.runs
        .finish(c.runId, { status: 'failed', counts: c.counts ?? {}, error })
        .catch(() => undefined);
      d.waiters.wake(c.runId, { status: 'failed', counts: c.counts ?? {}, error });
      throw err;
    }
  };
  const end = async (c: RunClosing): Promise<boolean> => {
    const run = await d.runs.get(c.runId);
    if (!run) return false;
    // the stage counts are in the record (or passed here); the articles' come from their statuses
    const articles = await d.states.summarize(c.runId);
    const counts = {
      ...run.counts,
      ...c.counts,
      ...articles.counts,
      ...(articles.pending ? { articles_pending: articles.pending } : {}),
    };
    const event: PipelineCompletedEvent = {
      runId: c.runId,
      correlationId: run.correlationId,
      status: c.status,
      durationMs: Date.now() - run.startedAt.getTime(),
      counts,
    };
    for (const [name, step] of [
      ['handle', d.steps.handle],
      ['notify', d.steps.notify],
    ] as const) {
      try {
        await step(event);
      } catch (err) {
        log.warn({
          event: 'pipeline.handler.failed',
          handler: `scraper.pipeline_completed.${name}`,
          run_id: c.runId,
          error: messageOf(err),
        });
      }
    }
    await d.runs.finish(c.runId, { status: c.status, counts, error: c.error });
    log.info({
      event: 'scraper.run.completed',
      run_id: c.runId,
      status: c.status,
      duration_ms: event.durationMs,
      counts,
    });
    d.waiters.wake(c.runId, { status: c.status, counts, error: c.error });
    return true;
  };
  return close;
}

export function runNotice(e: PipelineCompletedEvent): string {
  const c = e.counts;
  const failed =
    (c.processing_failed ?? 0) +
    (c.analysis_failed ?? 0) +
    (c.tag_normalization_failed ?? 0) +
    (c.translation_failed ?? 0);
  return [
    `Scraper run ${e.status} in ${(e.durationMs / 1000).toFixed(1)} s (run ${e.runId})`,
    `sources: ${c.sources ?? 0} (${c.sources_failed ?? 0} failed)`,
    `discovered: ${c.discovered ?? 0}, duplicates: ${c.duplicates ?? 0}, published: ${c.published ?? 0}`,
    `analyzed: ${c.analyzed ?? 0}, translated: ${c.translated ?? 0}, failed: ${failed}`,
  ].join('\n');
}
