/**
 * The job queue on pg-boss (docs/decisions/0050-durable-jobs-on-pg-boss.md), in the service's own database: on
 * PostgreSQL through a pool of its own, on PGlite through pg-boss's PGlite adapter on the one
 * embedded instance. pg-boss keeps its tables in the `pgboss` schema and migrates them itself.
 * It is loaded on first use, so a process that never touches a job does not hold it.
 */
import type { PgBoss, JobResult, JobWithMetadata } from 'pg-boss';
import type {
  DeadJob,
  JobOutcome,
  JobQueue,
  QueueDefinition,
  QueuedJob,
  WorkOptions,
} from '../../application/jobs/job-queue.ports.js';
import type { Logger } from '../../application/shared/ports.js';
import type { Database } from '../db/client.js';
import { messageOf as message } from '../../domain/errors.js';
import { scheduleTimeZone } from './time-zone.js';

export interface PgBossQueueOptions {
  /** pool size of the queue's own PostgreSQL pool */
  poolSize?: number;
  /** seconds between fetches when no job was announced (LISTEN/NOTIFY and local sends wake it sooner) */
  pollingIntervalSeconds?: number;
  /** seconds between pg-boss's supervision passes (heartbeat expiry, retention) */
  superviseIntervalSeconds?: number;
}

const deadQueue = (queue: string) => `${queue}.dead`;
/** the output of a job handed back because its process ended without finishing it */
const ORPHANED = 'the process running it ended';
/** pg-boss's own output for the jobs its stop() fails after the grace period */
const STOPPED = 'pg-boss shut down while active';
const wasHandedBack = (output: unknown) => {
  const o = (output ?? {}) as { error?: unknown; value?: unknown; message?: unknown };
  return [o.error, o.value, o.message].some((v) => v === ORPHANED || v === STOPPED);
};

export class PgBossJobQueue implements JobQueue {
  private boss: Promise<PgBoss> | undefined;
  private readonly workers = new Map<string, string[]>();
  private stopped = false;
  private stopping: Promise<void> | undefined;
  /** jobs this process is working on, by queue (what a shutdown waits for) */
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly database: Database,
    private readonly log: Logger,
    private readonly opts: PgBossQueueOptions = {},
  ) {}

  private instance(): Promise<PgBoss> {
    if (this.stopped) return Promise.reject(new Error('the job queue is stopped'));
    return (this.boss ??= this.open().catch((err: unknown) => {
      this.boss = undefined;
      throw err;
    }));
  }

  private async open(): Promise<PgBoss> {
    const { PgBoss, fromPglite } = await import('pg-boss');
    const supervise = this.opts.superviseIntervalSeconds ?? 10;
    const common = {
      // our own tracer carries the trace context in the payload, so the span tree of a run
      // (docs/architecture.md) holds exactly: pg-boss adds no spans of its own
      openTelemetry: { enabled: false },
      superviseIntervalSeconds: supervise,
      monitorIntervalSeconds: supervise,
      useListenNotify: true,
      registerInstance: false,
      // schedules are read every 5 s and their due ticks sent on within 2 s (pg-boss's defaults are
      // 30 and 5): a tick runs within seconds of its time, and a schedule made after start (every
      // one is) waits 5 s for its first read, not 30. Each read is one statement on one row
      // (docs/decisions/0050)
      cronMonitorIntervalSeconds: 5,
      cronWorkerIntervalSeconds: 2,
    };
    const d = this.database;
    const boss =
      d.kind === 'pglite' && d.pglite
        ? new PgBoss({ ...common, db: fromPglite(d.pglite), backend: 'pglite' })
        : new PgBoss({
            ...common,
            connectionString: d.connectionString,
            max: this.opts.poolSize ?? 4,
            application_name: 'article-intel-queue',
          });
    boss.on('error', (err) => this.log.warn({ event: 'queue.error', error: message(err) }));
    await boss.start();
    return boss;
  }

  async define(q: QueueDefinition): Promise<void> {
    const boss = await this.instance();
    if (q.deadLetter) await this.ensureQueue(boss, deadQueue(q.name), { retentionSeconds: 30 * 86_400 });
    const options = {
      retryLimit: q.retryLimit,
      retryDelay: q.retryDelaySeconds,
      retryBackoff: q.retryBackoff ?? true,
      // pg-boss refuses a maximum without backoff
      ...(q.retryBackoff === false ? {} : { retryDelayMax: 300 }),
      expireInSeconds: q.expireInSeconds ?? 900,
      // pg-boss refuses an undefined deadLetter in updateQueue: absent when the queue has none
      ...(q.deadLetter ? { deadLetter: deadQueue(q.name) } : {}),
      notify: true,
    };
    await this.ensureQueue(boss, q.name, {
      ...options,
      ...(q.heartbeatSeconds ? { heartbeatSeconds: q.heartbeatSeconds } : {}),
      policy: q.exclusiveKeys ? 'exclusive' : 'standard',
    });
    const { retryDelayMax: _max, ...updatable } = options as typeof options & { retryDelayMax?: number };
    await boss.updateQueue(q.name, updatable);
  }

  private async ensureQueue(boss: PgBoss, name: string, options: Parameters<PgBoss['createQueue']>[1]) {
    if (!(await boss.getQueue(name))) await boss.createQueue(name, options);
  }

  async send<T extends object>(queue: string, jobs: { key?: string; data: T }[]): Promise<number> {
    if (!jobs.length) return 0;
    const boss = await this.instance();
    const ids = await boss.insert(
      queue,
      jobs.map((j) => ({ data: j.data, ...(j.key ? { singletonKey: j.key } : {}) })),
      { returnId: true },
    );
    // this process's own workers fetch at once instead of at their next poll
    for (const id of this.workers.get(queue) ?? []) boss.notifyWorker(id);
    return ids?.length ?? 0;
  }

  async work<T extends object>(
    queue: string,
    opts: WorkOptions,
    handler: (jobs: QueuedJob<T>[]) => Promise<JobOutcome[]>,
  ): Promise<void> {
    const boss = await this.instance();
    const id = await boss.work(
      queue,
      {
        batchSize: opts.batchSize,
        localConcurrency: opts.loops,
        pollingIntervalSeconds: this.opts.pollingIntervalSeconds ?? 1,
        // NOTIFY wakes a worker for new jobs, not for a retry whose backoff has passed
        notifyPollingIntervalSeconds: (this.opts.pollingIntervalSeconds ?? 1) * 2,
        burstWhenBatchFull: opts.batchSize > 1,
        includeMetadata: true,
        perJobResults: true,
      },
      (jobs: JobWithMetadata<T>[]) => this.track(queue, jobs.length, () => this.settle(queue, jobs, handler)),
    );
    this.workers.set(queue, [...(this.workers.get(queue) ?? []), id]);
  }

  private async settle<T extends object>(
    queue: string,
    jobs: JobWithMetadata<T>[],
    handler: (jobs: QueuedJob<T>[]) => Promise<JobOutcome[]>,
  ): Promise<JobResult[]> {
    let outcomes: JobOutcome[];
    try {
      outcomes = await handler(
        jobs.map((j) => ({
          id: j.id,
          data: j.data,
          attempt: j.retryCount + 1,
          lastAttempt: j.retryCount >= j.retryLimit,
        })),
      );
    } catch (err) {
      // a handler bug: every job of the batch is tried again (and dead-lettered when out of retries)
      this.log.error({ event: 'queue.handler_failed', queue, error: message(err) });
      outcomes = jobs.map(() => ({ status: 'retry', error: message(err) }));
    }
    return jobs.map((j, i) => {
      const o = outcomes[i] ?? { status: 'retry', error: 'no outcome' };
      if (o.status === 'completed') return { id: j.id, status: 'completed' };
      const output = { error: o.error, stage: o.status === 'dead' ? (o.stage ?? null) : null };
      return { id: j.id, status: o.status === 'dead' ? 'deadletter' : 'failed', output };
    });
  }

  async schedule(queue: string, cron: string, run: () => Promise<void>): Promise<void> {
    const boss = await this.instance();
    // one waiting and one running tick at most: a tick never piles up behind a long run
    await this.ensureQueue(boss, queue, { policy: 'stately', retryLimit: 0, expireInSeconds: 6 * 3600 });
    await boss.schedule(queue, cron, null, { tz: scheduleTimeZone() });
    const id = await boss.work(queue, { pollingIntervalSeconds: 2 }, async () => {
      await this.track(queue, 1, run);
    });
    this.workers.set(queue, [...(this.workers.get(queue) ?? []), id]);
  }

  running(): { queue: string; jobs: number }[] {
    return [...this.inFlight].filter(([, n]) => n > 0).map(([queue, jobs]) => ({ queue, jobs }));
  }

  private async track<R>(queue: string, n: number, fn: () => Promise<R>): Promise<R> {
    this.inFlight.set(queue, (this.inFlight.get(queue) ?? 0) + n);
    try {
      return await fn();
    } finally {
      this.inFlight.set(queue, (this.inFlight.get(queue) ?? n) - n);
    }
  }

  async dead<T>(
    queue: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: DeadJob<T>[]; total: number }> {
    const boss = await this.instance();
    // no worker has defined the queue yet: nothing has failed
    if (!(await boss.getQueue(deadQueue(queue)))) return { items: [], total: 0 };
    const rows = await boss.findJobs<T>(deadQueue(queue), { queued: true, limit: 10_000 });
    rows.sort((a, b) => b.createdOn.getTime() - a.createdOn.getTime());
    const items = rows.slice(page.offset, page.offset + page.limit).map((j): DeadJob<T> => {
      const out = (j.sourceOutput ?? {}) as { error?: unknown; stage?: unknown; message?: unknown };
      return {
        id: j.id,
        queue: j.sourceName ?? queue,
        data: j.data,
        stage: typeof out.stage === 'string' ? out.stage : null,
        error: String(out.error ?? out.message ?? 'failed'),
        attempts: (j.sourceRetryCount ?? 0) + 1,
        failedAt: j.createdOn,
      };
    });
    return { items, total: rows.length };
  }

  async recoverOrphans(queue: string): Promise<number> {
    const boss = await this.instance();
    // only where no other process can be running these jobs: one process per PGlite DATA_DIR
    const orphans =
      this.database.kind === 'pglite'
        ? (await boss.findJobs(queue, { limit: 100_000 }))
            .filter((j) => j.state === 'active')
            .map((j) => j.id)
        : [];
    if (orphans.length) await boss.fail(queue, orphans, { error: ORPHANED });
    // a failed job waits for its retry backoff (seconds to minutes); one that a process handed back
    // (the kill above, or pg-boss's stop after the grace period) did not fail: it runs again now
    const handedBack = (await boss.findJobs(queue, { queued: true, limit: 100_000 }))
      .filter((j) => j.state === 'retry' && wasHandedBack(j.output))
      .map((j) => j.id);
    for (const id of handedBack) await boss.update(queue, undefined, { id, startAfter: new Date() });
    return handedBack.length;
  }

  stop(graceMs: number): Promise<void> {
    return (this.stopping ??= (async () => {
      const pending = this.boss;
      this.stopped = true;
      if (!pending) return;
      const boss = await pending.catch(() => undefined);
      // waits for running handlers up to graceMs, then fails their jobs (retried later: handed back)
      await boss?.stop({ graceful: true, timeout: graceMs, close: true });
    })());
  }
}
