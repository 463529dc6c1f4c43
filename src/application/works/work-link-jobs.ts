import type { JobOutcome, JobQueue, QueuedJob } from '../jobs/job-queue.ports.js';
import type { Logger } from '../shared/ports.js';
import type { IdentifierLink } from '../../domain/works.js';
import { LINK_BATCH, type LinkSummary, type WorkLinker } from './work-linker.service.js';

export const WORK_LINK_QUEUE = 'work.link';
/** the tick that queues what arrived and was never linked */
export const WORK_ARRIVALS_JOB = 'work-arrivals';
export const WORK_ARRIVALS_CRON = '* * * * *';
/** articles queued per tick at most; a burst is worked off over a few ticks */
const ARRIVALS_PER_TICK = 500;

export interface WorkLinkJob {
  articleId: string;
}

/**
 * Work linking as durable jobs (one per article, keyed by it, on the `work.link` queue): queued by
 * a tick for the articles that reached a final status in the last day and were never linked, and
 * again for the articles a citation answer names in new identifier links. The pipeline may also
 * call `linkArticles` (or `enqueue`) when an article is final: linking twice changes nothing.
 */
export class WorkLinkJobs {
  private defined?: Promise<void>;
  private started?: Promise<void>;

  constructor(private readonly d: { queue: JobQueue; linker: WorkLinker; logger: Logger }) {}

  private define(): Promise<void> {
    return (this.defined ??= this.d.queue
      .define({
        name: WORK_LINK_QUEUE,
        retryLimit: 4,
        retryDelaySeconds: 30,
        expireInSeconds: 300,
        heartbeatSeconds: 60,
        deadLetter: true,
        exclusiveKeys: true,
      })
      .catch((err: unknown) => {
        this.defined = undefined;
        throw err;
      }));
  }

  /** Defines the queue and works on it in this process (idempotent). */
  start(): Promise<void> {
    return (this.started ??= (async () => {
      await this.define();
      await this.d.queue.recoverOrphans(WORK_LINK_QUEUE);
      await this.d.queue.work<WorkLinkJob>(WORK_LINK_QUEUE, { batchSize: LINK_BATCH, loops: 1 }, (jobs) =>
        this.handle(jobs),
      );
    })().catch((err: unknown) => {
      this.started = undefined;
      throw err;
    }));
  }

  /** Queues the articles for linking; answers how many jobs were added. */
  async enqueue(articleIds: readonly string[]): Promise<number> {
    if (!articleIds.length) return 0;
    await this.define();
    return this.d.queue.send<WorkLinkJob>(
      WORK_LINK_QUEUE,
      [...new Set(articleIds)].map((articleId) => ({ key: articleId, data: { articleId } })),
    );
  }

  /** The tick: queues the articles of the last day never linked. */
  async queueArrivals(): Promise<{ queued: number }> {
    return { queued: await this.enqueue(await this.d.linker.unlinked(ARRIVALS_PER_TICK)) };
  }

  /** For the citation sources: stores an answer's links and queues the articles they name. */
  readonly onLinks = async (links: IdentifierLink[]): Promise<void> => {
    await this.enqueue(await this.d.linker.recordLinks(links));
  };

  /** One batch in one linking pass; a failure retries the batch (linking again changes nothing). */
  private async handle(jobs: QueuedJob<WorkLinkJob>[]): Promise<JobOutcome[]> {
    try {
      const summary: LinkSummary = await this.d.linker.linkArticles(jobs.map((j) => j.data.articleId));
      if (summary.merged || summary.coverage) this.d.logger.info({ event: 'works.linked', ...summary });
      return jobs.map(() => ({ status: 'completed' }));
    } catch (err) {
      this.d.logger.warn({ event: 'works.link_failed', articles: jobs.length, err });
      const error = err instanceof Error ? err.message : String(err);
      return jobs.map(() => ({ status: 'retry', error }));
    }
  }
}
