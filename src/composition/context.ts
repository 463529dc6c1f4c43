import type { Logger as Pino } from 'pino';
import type { Config } from '../config.js';
import type { Database, Db } from '../infrastructure/db/client.js';
import type { LogTap } from '../infrastructure/logging/log-tap.js';
import type { Clock, JobLock, KeyValueCache } from '../application/shared/ports.js';
import type { JobQueue } from '../application/jobs/job-queue.ports.js';
import type { PasswordHasher } from '../application/auth/auth.ports.js';
import type { LanguageModelFactory } from '../application/shared/llm.js';
import type { LlmUsageStore } from '../application/shared/llm-usage.js';
import type { Messenger } from '../application/shared/messenger.js';
import type { Services } from '../http/services.js';
import type { ScheduledJob } from '../jobs/scheduler.js';

/** What every area's wiring function receives from the composition root. */
export interface WiringContext {
  config: Config;
  logger: Pino;
  /** every log line, for shipping (the pipeline's telemetry attaches the OTLP log sink) */
  logTap: LogTap;
  database: Database;
  db: Db;
  cache: KeyValueCache;
  clock: Clock;
  jobLock: JobLock;
  /** the durable job queue shared by the areas (pipeline stages, cron schedules) */
  queue: JobQueue;
  /** every model call is metered: calls and tokens per day, purpose and run */
  llm: LanguageModelFactory;
  llmUsage: LlmUsageStore;
  /** the password hasher of the auth service (accounts set passwords too) */
  hasher: PasswordHasher;
  messenger: Messenger;
  onClose(fn: () => Promise<void>): void;
}

export interface BackgroundWorker {
  name: string;
  start(): void;
  /** resolves once the started loop runs (for callers that must wait for it, e.g. the bench) */
  ready?(): Promise<void>;
  /** stop and flush what the worker holds (called before the stores close) */
  stop(): Promise<void>;
}

/**
 * What one area adds: its use cases for the HTTP layer (exactly the `Services` keys it owns), cron
 * jobs and background loops. What other areas need from it is returned beside (e.g. the tagger).
 */
export interface AreaWiring<K extends keyof Services> {
  services: Pick<Services, K>;
  jobs?: ScheduledJob[];
  workers?: BackgroundWorker[];
}
