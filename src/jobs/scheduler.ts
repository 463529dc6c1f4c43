import type { JobQueue } from '../application/jobs/job-queue.ports.js';
import type { JobLock, Logger } from '../application/shared/ports.js';
import { newCorrelationId, runWithCorrelation } from '../application/shared/context.js';

export interface ScheduledJob {
  name: string;
  cron: string;
  /** one tick's work; jobs are idempotent per window (e.g. `weekly-report:<topic>:<week>`) */
  run(): Promise<unknown>;
  /**
   * whether a tick's result did nothing (e.g. no new article to look up): a job that ticks every
   * minute then logs its completion at debug, so the log at info holds the ticks that did work
   */
  idle?(result: unknown): boolean;
}

/** the queue of a scheduled job's ticks */
const cronQueue = (job: string) => `cron.${job}`;

/**
 * Asks for a tick of a scheduled job now, as a job on its tick queue: the worker that runs its
 * schedule takes it within its poll (at once in the same process), under the same lock. The queue
 * keeps at most one waiting tick, so asking while one waits adds nothing. Where no worker has
 * scheduled the job yet (the queue does not exist) the next scheduled tick does the work.
 */
export async function requestTick(queue: JobQueue, job: string, log: Logger): Promise<void> {
  try {
    await queue.send(cronQueue(job), [{ data: { requested: true } }]);
  } catch (err) {
    log.debug({ event: 'scheduler.tick_request_failed', job, err });
  }
}

/** a scheduled job whose `idle` reads the result type its `run` answers */
export function scheduledJob<T>(job: {
  name: string;
  cron: string;
  run(): Promise<T>;
  idle?(result: T): boolean;
}): ScheduledJob {
  const { idle } = job;
  return { name: job.name, cron: job.cron, run: () => job.run(), idle: idle && ((r) => idle(r as T)) };
}

/**
 * Cron schedules of the worker role, as queue schedules (pg-boss): each tick becomes one job on the
 * queue `cron.<name>`, whatever the number of workers, and one worker runs it; at most one tick
 * waits while another runs. The tick also takes the advisory lock of its name, so a tick never
 * overlaps a run of the same job started another way.
 */
export class Scheduler {
  constructor(
    private readonly jobs: ScheduledJob[],
    private readonly lock: JobLock,
    private readonly queue: JobQueue,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    for (const job of this.jobs) {
      await this.queue.schedule(cronQueue(job.name), job.cron, () => this.tick(job));
      this.log.info({ event: 'scheduler.job_scheduled', job: job.name, cron: job.cron });
    }
  }

  private async tick(job: ScheduledJob): Promise<void> {
    const correlationId = newCorrelationId();
    await runWithCorrelation(correlationId, async () => {
      const started = Date.now();
      try {
        const result = await this.lock.runExclusive(`cron:${job.name}`, () => job.run());
        if (!result.ran) this.log.info({ event: 'scheduler.job_skipped', job: job.name, reason: 'locked' });
        else {
          const line = { event: 'scheduler.job_completed', job: job.name, duration_ms: Date.now() - started };
          if (job.idle?.(result.value)) this.log.debug(line);
          else this.log.info(line);
        }
      } catch (err) {
        this.log.error({
          event: 'scheduler.job_failed',
          job: job.name,
          err,
          duration_ms: Date.now() - started,
        });
      }
    });
  }

  /** ticks stop with the queue (its stop lets a running tick finish within the grace period) */
  stop(): Promise<void> {
    return Promise.resolve();
  }
}
