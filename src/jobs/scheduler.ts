import { Cron } from 'croner';
import type { JobLock, Logger } from '../application/shared/ports.js';
import { newCorrelationId, runWithCorrelation } from '../application/shared/context.js';

export interface ScheduledJob {
  name: string;
  cron: string;
  /** the lock key of one tick; jobs are idempotent per window, the lock stops two workers at once */
  run(): Promise<unknown>;
}

/** Cron scheduler of the worker role: each tick takes an advisory lock so one worker runs it. */
export class Scheduler {
  private readonly crons: Cron[] = [];
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly jobs: ScheduledJob[],
    private readonly lock: JobLock,
    private readonly log: Logger,
  ) {}

  start(): void {
    for (const job of this.jobs) {
      const cron = new Cron(job.cron, { protect: true, catch: true }, () => {
        const p = this.tick(job);
        this.running.add(p);
        void p.finally(() => this.running.delete(p));
      });
      this.crons.push(cron);
      this.log.info({
        event: 'scheduler.job_scheduled',
        job: job.name,
        cron: job.cron,
        next: cron.nextRun()?.toISOString(),
      });
    }
  }

  private async tick(job: ScheduledJob): Promise<void> {
    const correlationId = newCorrelationId();
    await runWithCorrelation(correlationId, async () => {
      const started = Date.now();
      try {
        const result = await this.lock.runExclusive(`cron:${job.name}`, () => job.run());
        if (!result.ran) this.log.info({ event: 'scheduler.job_skipped', job: job.name, reason: 'locked' });
        else
          this.log.info({
            event: 'scheduler.job_completed',
            job: job.name,
            duration_ms: Date.now() - started,
          });
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

  /** stops new ticks and waits for the running ones */
  async stop(): Promise<void> {
    for (const c of this.crons) c.stop();
    await Promise.allSettled([...this.running]);
  }
}
