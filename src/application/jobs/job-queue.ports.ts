/**
 * The durable job queue (pg-boss on the service's database, docs/decisions/0050-durable-jobs-on-pg-boss.md).
 * Jobs have a name (their queue), a payload of ids (never whole rows) and one handler each; a
 * handler may run twice and must change nothing the second time.
 */

/** How a queue retries and where its failed jobs go. */
export interface QueueDefinition {
  name: string;
  /** retries after a failed attempt (attempts = retryLimit + 1) */
  retryLimit: number;
  /** first retry delay; doubled per retry (exponential backoff with jitter) unless `retryBackoff: false` */
  retryDelaySeconds: number;
  /** false: every retry waits `retryDelaySeconds` (a job that waits for something, not a failure) */
  retryBackoff?: boolean;
  /** a running job that stops sending heartbeats (its process died) is retried after this */
  heartbeatSeconds?: number;
  /** an attempt running longer than this is failed (and retried) */
  expireInSeconds?: number;
  /** failed jobs are kept in a dead-letter queue listed to admins */
  deadLetter?: boolean;
  /**
   * one waiting or running job per key: sending a job whose key is waiting or running adds nothing
   * (a job per article, a job per cron window)
   */
  exclusiveKeys?: boolean;
}

export interface QueuedJob<T> {
  id: string;
  data: T;
  /** 1 for the first attempt */
  attempt: number;
  /** no retry is left: a failure now is final */
  lastAttempt: boolean;
}

/** What became of one job of a batch. */
export type JobOutcome =
  | { status: 'completed' }
  /** a transient failure: tried again later (backoff), or dead-lettered when no retry is left */
  | { status: 'retry'; error: string }
  /** a final failure: into the dead-letter queue at once, with what is known of it */
  | { status: 'dead'; error: string; stage?: string };

export interface WorkOptions {
  /** jobs fetched at once by one fetch loop */
  batchSize: number;
  /** fetch loops of this process */
  loops: number;
}

/** A job that failed for good, as admins see it (GET /admin/jobs/dead). */
export interface DeadJob<T> {
  id: string;
  queue: string;
  data: T;
  stage: string | null;
  error: string;
  attempts: number;
  failedAt: Date;
}

export interface JobQueue {
  /** creates (or updates) the queue; idempotent */
  define(queue: QueueDefinition): Promise<void>;
  /**
   * Enqueues jobs, `key` per job for exclusive queues. Answers how many were added (a key that has a
   * job waiting or running adds none).
   */
  send<T extends object>(queue: string, jobs: { key?: string; data: T }[]): Promise<number>;
  /** Processes the queue in this process until stop(); the handler answers one outcome per job. */
  work<T extends object>(
    queue: string,
    opts: WorkOptions,
    handler: (jobs: QueuedJob<T>[]) => Promise<JobOutcome[]>,
  ): Promise<void>;
  /** A cron schedule: one job per tick across all processes, run by one of them. */
  schedule(queue: string, cron: string, run: () => Promise<void>): Promise<void>;
  /** Jobs of the queue's dead-letter queue, newest first. */
  dead<T>(
    queue: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: DeadJob<T>[]; total: number }>;
  /**
   * Jobs left running by a process that no longer exists are handed back at once (only where this
   * process is the only one on the database: PGlite). Elsewhere their heartbeat expires. Jobs handed
   * back that way, or by a process that stopped before they ended (SIGTERM after the grace period),
   * run again now rather than after a retry backoff: nothing failed in them. Answers how many.
   */
  recoverOrphans(queue: string): Promise<number>;
  /** the jobs this process is working on now, per queue (cron ticks included) */
  running(): { queue: string; jobs: number }[];
  /** Stops fetching; running handlers get graceMs to finish, then their jobs are handed back. */
  stop(graceMs: number): Promise<void>;
}
