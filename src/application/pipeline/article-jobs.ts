/**
 * Each stored article's steps run as one durable job (`article.pipeline`), keyed by the article:
 * one job waiting or running per article, whichever process sent it. This queue is the only way
 * work moves between the pipeline's steps: the publish stage sends the jobs, any process's worker
 * runs them (article-flow.ts), and the job whose article was its run's last pending one ends the
 * run (run-end.ts), in whichever process that is.
 */
import { isFinalStatus } from '../../domain/article-status.js';
import { messageOf } from '../../domain/errors.js';
import { isTransientError } from '../jobs/transient.js';
import type { JobOutcome, JobQueue, QueuedJob } from '../jobs/job-queue.ports.js';
import type { Logger } from '../shared/ports.js';
import { RetryableStepError, type ArticleFlow } from './article-flow.js';
import type { ArticleRef } from './pipeline.events.js';
import type { ArticleStates, ArticleStore, PipelineArticle } from './pipeline.ports.js';
import type { CloseRun } from './run-end.js';

export const ARTICLE_QUEUE = 'article.pipeline';

/** The job's payload: ids, and the W3C trace context of the run that sent it (set by the wiring). */
export interface ArticleJobData extends ArticleRef {
  traceparent?: string;
}

export interface ArticleJobsDeps {
  queue: JobQueue;
  articles: Pick<ArticleStore, 'getMany'>;
  states: Pick<ArticleStates, 'unfinished'>;
  flow: ArticleFlow;
  closeRun: CloseRun;
  logger: Logger;
  retryLimit: number;
  retryDelaySeconds: number;
  /** article flows this process runs at once */
  concurrency: number;
}

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

  /**
   * One job per article (an article with a job waiting or running gets no second one). This
   * process works on the queue from now on: a run's own process helps with its articles.
   */
  async enqueue(refs: ArticleJobData[]): Promise<number> {
    await this.start();
    return this.send(refs);
  }

  private send(refs: ArticleJobData[]): Promise<number> {
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
    for (let i = 0; i < unfinished.length; i += 1000) sent += await this.send(unfinished.slice(i, i + 1000));
    return sent;
  }

  /** runs the batch's article flows side by side (their articles read at once); one outcome per job */
  async handle(jobs: QueuedJob<ArticleJobData>[]): Promise<JobOutcome[]> {
    const stored = new Map(
      (await this.d.articles.getMany(jobs.map((j) => j.data.articleId))).map((a) => [a.id, a]),
    );
    return Promise.all(jobs.map((job) => this.runOne(job, stored.get(job.data.articleId))));
  }

  private async runOne(job: QueuedJob<ArticleJobData>, article?: PipelineArticle): Promise<JobOutcome> {
    // deleted meanwhile, or finished by an earlier attempt: nothing left to do
    if (!article || isFinalStatus(article.processingStatus)) return { status: 'completed' };
    try {
      const { failure, runEnded } = await this.d.flow(job.data, article, {
        retryable: (err) => !job.lastAttempt && isTransientError(err),
      });
      if (runEnded) await this.endRun(job.data);
      // the article has its final state (failed, with the reason); admins see the job as dead
      if (failure) return { status: 'dead', stage: failure.stage, error: failure.error };
      return { status: 'completed' };
    } catch (err) {
      const error = err instanceof RetryableStepError ? err.error.message : messageOf(err);
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

  /** the article was its run's last: the run ends here (a failure is closed by the sweep later) */
  private async endRun(data: ArticleJobData): Promise<void> {
    try {
      await this.d.closeRun({
        runId: data.runId,
        status: 'completed',
        error: null,
        ...(data.traceparent ? { traceparent: data.traceparent } : {}),
      });
    } catch (err) {
      this.d.logger.error({ event: 'scraper.run.end_failed', run_id: data.runId, err });
    }
  }
}
