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
import type { ArticleStates, PipelineMetrics, RunStore } from './pipeline.ports.js';

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

/** Tells a run's watchers in this process when the run ends here. */
export class RunWaiters {
  private readonly watching = new Map<string, Set<(e: RunEnded) => void>>();

  /** from now on: `ended` resolves if the run ends in this process; `stop` when no longer needed */
  watch(runId: string): { ended: Promise<RunEnded>; stop(): void } {
    let notify!: (e: RunEnded) => void;
    const ended = new Promise<RunEnded>((resolve) => (notify = resolve));
    const set = this.watching.get(runId) ?? new Set();
    this.watching.set(runId, set);
    set.add(notify);
    return {
      ended,
      stop: () => {
        set.delete(notify);
        if (!set.size && this.watching.get(runId) === set) this.watching.delete(runId);
      },
    };
  }

  wake(runId: string, ended: RunEnded): void {
    for (const notify of this.watching.get(runId) ?? []) notify(ended);
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
