import type { Logger as Pino } from 'pino';
import type { Config } from '../config.js';
import type { Database, Db } from '../infrastructure/db/client.js';
import type { LogTap } from '../infrastructure/logging/log-tap.js';
import type { Clock, JobLock, KeyValueCache } from '../application/shared/ports.js';
import type { JobQueue } from '../application/jobs/job-queue.ports.js';
import type { LanguageModelFactory } from '../application/shared/llm.js';
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
  llm: LanguageModelFactory;
  messenger: Messenger;
  /** services wired by the areas before this one (areas are wired in list order) */
  services: Partial<Services>;
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

/** What one area adds: its use cases for the HTTP layer, cron jobs and background loops. */
export interface AreaWiring {
  services?: Partial<Services>;
  jobs?: ScheduledJob[];
  workers?: BackgroundWorker[];
}

export type WireArea = (ctx: WiringContext) => AreaWiring | Promise<AreaWiring>;
