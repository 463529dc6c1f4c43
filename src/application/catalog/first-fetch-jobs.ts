import { AppError, messageOf } from '../../domain/errors.js';
import type { JobOutcome, JobQueue, QueuedJob } from '../jobs/job-queue.ports.js';
import type { Logger } from '../shared/ports.js';
import type { StartRun } from './sources.ports.js';

export const FIRST_FETCH_QUEUE = 'source.first-fetch';

export interface FirstFetchJob {
  sourceId: string;
}

/** what a first fetch job reads of its source */
export interface FirstFetchSources {
  /** null: the source no longer exists */
  find(id: string): Promise<{ enabled: boolean; last_fetched_at: string | null } | null>;
}

/**
 * A new source's first read as a durable job (one per source, keyed by it, on the
 * `source.first-fetch` queue), queued when the admin asked for it while another scraper run was
 * under way: a worker starts the source's run as soon as no run is under way, tried again every 5 s
 * (no backoff: it waits, nothing failed) for an hour while one is. It lives in the
 * database, so a restart loses nothing; past the last try the schedule reads the source anyway (a
 * source never read is due). A source that was read meanwhile, disabled or deleted is left alone.
 */
export class FirstFetchJobs {
  private defined?: Promise<void>;
  private started?: Promise<void>;

  constructor(
    private readonly d: {
      queue: JobQueue;
      sources: FirstFetchSources;
      startRun: StartRun;
      logger: Logger;
    },
  ) {}

  private define(): Promise<void> {
    return (this.defined ??= this.d.queue
      .define({
        name: FIRST_FETCH_QUEUE,
        // waiting for a run to end, not failing: every 5 s, for an hour
        retryLimit: 720,
        retryDelaySeconds: 5,
        retryBackoff: false,
        expireInSeconds: 120,
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
      await this.d.queue.recoverOrphans(FIRST_FETCH_QUEUE);
      await this.d.queue.work<FirstFetchJob>(FIRST_FETCH_QUEUE, { batchSize: 1, loops: 1 }, (jobs) =>
        Promise.all(jobs.map((j) => this.handle(j))),
      );
    })().catch((err: unknown) => {
      this.started = undefined;
      throw err;
    }));
  }

  /** Queues the source's first read; answers whether a job was added (one waiting already: no). */
  async enqueue(sourceId: string): Promise<boolean> {
    await this.define();
    return (
      (await this.d.queue.send<FirstFetchJob>(FIRST_FETCH_QUEUE, [{ key: sourceId, data: { sourceId } }])) > 0
    );
  }

  private async handle(job: QueuedJob<FirstFetchJob>): Promise<JobOutcome> {
    const { sourceId } = job.data;
    try {
      const source = await this.d.sources.find(sourceId);
      // read meanwhile (a scheduled run, "Fetch now"), disabled or deleted: nothing left to do
      if (!source?.enabled || source.last_fetched_at !== null) return { status: 'completed' };
      const { run_id } = await this.d.startRun({ kind: 'source', sourceId }, true);
      this.d.logger.info({ event: 'sources.first_fetch_started', source_id: sourceId, run_id });
      return { status: 'completed' };
    } catch (err) {
      if (err instanceof AppError && err.kind === 'Conflict') {
        if (job.lastAttempt)
          this.d.logger.info({ event: 'sources.first_fetch_left_to_schedule', source_id: sourceId });
        return { status: 'retry', error: 'another run is under way' };
      }
      this.d.logger.warn({ event: 'sources.first_fetch_failed', source_id: sourceId, err });
      return { status: 'retry', error: messageOf(err) };
    }
  }
}
