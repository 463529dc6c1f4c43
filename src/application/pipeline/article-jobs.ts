/**
 * Each stored article's stages run as one durable job (`article.pipeline`), keyed by the article:
 * one job waiting or running per article, whichever process sent it. The job runs the article's
 * flow on the event bus (processing, analysis, tag normalisation, translation); every handler checks
 * what the article already has, so a retried job (after a transient failure, a crash or a SIGTERM
 * hand-back) resumes where the last attempt stopped and does nothing twice.
 */
import { isTransientError } from '../jobs/transient.js';
import type { JobOutcome, JobQueue, QueuedJob } from '../jobs/job-queue.ports.js';
import type { Logger } from '../shared/ports.js';
import { RetryableFlowError, type EventBus } from './event-bus.js';
import type { ArticleFailure, ArticleRef, PipelineEvents } from './pipeline.events.js';

export const ARTICLE_QUEUE = 'article.pipeline';

/** The job's payload: ids, and the W3C trace context of the run that sent it (set by the wiring). */
export interface ArticleJobData extends ArticleRef {
  traceparent?: string;
}

/** Articles as the queue's sweep and the run's end see them. */
export interface ArticleStates {
  /** the run's articles by outcome; `pending` have not reached a final state */
  summarize(runId: string): Promise<{ pending: number; counts: Record<string, number> }>;
  /** articles not in a final state, oldest first (the sweep gives each a job) */
  unfinished(limit: number): Promise<ArticleRef[]>;
}

export interface ArticleJobsDeps {
  queue: JobQueue;
  bus: EventBus<PipelineEvents>;
  states: ArticleStates;
  logger: Logger;
  retryLimit: number;
  retryDelaySeconds: number;
  /** article flows this process runs at once */
  concurrency: number;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class ArticleJobs {
  private started: Promise<void> | undefined;

  constructor(private readonly d: ArticleJobsDeps) {}

  /**
   * Defines the queue, hands back jobs a dead process left running (PGlite), gives every unfinished
   * article a job (the sweep) and starts processing. Idempotent: the first call does it.
   */
  start(): Promise<void> {
    return (this.started ??= this.boot().catch((err: unknown) => {
      this.started = undefined;
      throw err;
    }));
  }

  private async boot(): Promise<void> {
    await this.d.queue.define({
      name: ARTICLE_QUEUE,
      retryLimit: this.d.retryLimit,
      retryDelaySeconds: this.d.retryDelaySeconds,
      heartbeatSeconds: 10,
      expireInSeconds: 600,
      deadLetter: true,
      exclusiveKeys: true,
    });
    const recovered = await this.d.queue.recoverOrphans(ARTICLE_QUEUE);
    const swept = await this.sweepNow();
    if (recovered || swept)
      this.d.logger.info({ event: 'pipeline.jobs.recovered', handed_back: recovered, enqueued: swept });
    // small batches on several fetch loops: a batch is settled when its slowest flow ends, so
    // smaller batches keep more flows in flight while a model call or a write waits
    const loops = 4;
    await this.d.queue.work<ArticleJobData>(
      ARTICLE_QUEUE,
      { batchSize: Math.max(1, Math.ceil(this.d.concurrency / loops)), loops },
      (jobs) => this.handle(jobs),
    );
    this.d.logger.info({
      event: 'pipeline.jobs.started',
      queue: ARTICLE_QUEUE,
      concurrency: this.d.concurrency,
    });
  }

  /** one job per article; an article with a job waiting or running gets no second one */
  enqueue(refs: ArticleJobData[]): Promise<number> {
    return this.d.queue.send(
      ARTICLE_QUEUE,
      refs.map((data) => ({ key: data.articleId, data })),
    );
  }

  /**
   * Every article not in a final state gets a job unless it has one: what a crash between storing
   * articles and sending their jobs (or a job lost for good) would otherwise strand.
   */
  async sweep(): Promise<number> {
    await this.start();
    return this.sweepNow();
  }

  private async sweepNow(): Promise<number> {
    let sent = 0;
    const unfinished = await this.d.states.unfinished(50_000);
    for (let i = 0; i < unfinished.length; i += 1000)
      sent += await this.enqueue(unfinished.slice(i, i + 1000));
    return sent;
  }

  /** runs the batch's article flows side by side; one outcome per job */
  handle(jobs: QueuedJob<ArticleJobData>[]): Promise<JobOutcome[]> {
    return Promise.all(jobs.map((job) => this.runOne(job)));
  }

  private async runOne(job: QueuedJob<ArticleJobData>): Promise<JobOutcome> {
    try {
      const { failures } = await this.d.bus.run('article.scraped', job.data, {
        retryable: (err) => !job.lastAttempt && isTransientError(err),
      });
      const failure = failures[0]?.payload as ArticleFailure | undefined;
      // the article has its final state (failed, with the reason); admins see the job as dead
      if (failure) return { status: 'dead', stage: failure.stage, error: failure.error };
      return { status: 'completed' };
    } catch (err) {
      const error = err instanceof RetryableFlowError ? err.error.message : message(err);
      this.d.logger.warn({
        event: 'pipeline.job.retry',
        article_id: job.data.articleId,
        run_id: job.data.runId,
        attempt: job.attempt,
        error,
      });
      return { status: 'retry', error };
    }
  }
}
