import { join } from 'node:path';
import type { Logger as Pino } from 'pino';
import { ConfigError, type Config } from '../config.js';
import { AppError } from '../domain/errors.js';
import { openDatabase, type Database } from '../infrastructure/db/client.js';
import { seedDatabase } from '../infrastructure/db/seed.js';
import { MemoryCache } from '../infrastructure/cache/memory-cache.js';
import { createLogger } from '../infrastructure/logging/logger.js';
import { LogTap } from '../infrastructure/logging/log-tap.js';
import { ScryptHasher } from '../infrastructure/auth/scrypt-hasher.js';
import { JwtTokens, loadOrCreateSecret } from '../infrastructure/auth/jwt-tokens.js';
import { ZxcvbnCommonPasswords } from '../infrastructure/auth/common-passwords.js';
import { DrizzleUserRepository } from '../infrastructure/db/repositories/user.repository.js';
import {
  DrizzleProviderRepository,
  DrizzleSourceRepository,
  DrizzleTopicRepository,
} from '../infrastructure/db/repositories/catalog.repository.js';
import { AdvisoryJobLock } from '../infrastructure/db/advisory-lock.js';
import { PgBossJobQueue } from '../infrastructure/queue/pg-boss-queue.js';
import type { JobQueue } from '../application/jobs/job-queue.ports.js';
import { AuthService } from '../application/auth/auth.service.js';
import { CatalogService } from '../application/catalog/catalog.service.js';
import { RateLimiter } from '../application/shared/rate-limit.js';
import { systemClock, type Clock, type JobLock, type KeyValueCache } from '../application/shared/ports.js';
import type { Services } from '../http/services.js';
import type { ScheduledJob } from '../jobs/scheduler.js';
import { OpenAiLanguageModelFactory } from '../infrastructure/llm/openai-language-model.js';
import { TelegramMessenger } from '../infrastructure/messenger/telegram-messenger.js';
import { wireUsers } from './users.js';
import { wireProviderTest } from './provider-test.js';
import { wireOpml } from './opml.js';
import { wireMetrics } from './metrics.js';
import { wireMonitoring } from './monitoring.js';
import type { BackgroundWorker, WireArea, WiringContext } from './context.js';
import { wireReports } from './reports.js';
import { wireArticles } from './articles.js';
import { wireTags } from './tags.js';
import { wirePipeline } from './pipeline.js';
import { wireRuns } from './runs.js';
import { wireSources } from './sources.js';

/**
 * The areas, wired in this order; each adds its services, cron jobs and background workers.
 * An area may use the services of the areas before it (ctx.services).
 */
const AREAS: WireArea[] = [
  wireMonitoring,
  wireUsers,
  wireProviderTest,
  wireOpml,
  wireMetrics,
  wireTags,
  wireArticles,
  wireReports,
  wirePipeline,
  wireSources,
  wireRuns,
];

export interface ContainerOverrides {
  database?: Database;
  cache?: KeyValueCache;
  logger?: Pino;
  /** the tap the given logger writes to (tests that check log shipping build both) */
  logTap?: LogTap;
  clock?: Clock;
  /** where log lines go instead of stdout (the CLI prints them above its progress bar) */
  logDestination?: { write(line: string): void };
  /** scrypt cost; tests lower it */
  hasher?: ScryptHasher;
}

/** Values of the configuration that must never appear in a log line. */
export function configuredSecrets(config: Config): string[] {
  return [
    config.auth.secret,
    config.auth.adminPassword,
    config.monitor.apiKey,
    config.telegram.botToken,
    config.s3.secretAccessKey,
    config.embedding.apiKey,
  ].filter((s): s is string => typeof s === 'string' && s.length > 0);
}

/** Everything a role needs, built once from the config. */
export interface Container {
  config: Config;
  logger: Pino;
  database: Database;
  cache: KeyValueCache;
  clock: Clock;
  jobLock: JobLock;
  /** the durable job queue (pg-boss on the same database), started on first use */
  queue: JobQueue;
  services: Services;
  /** cron jobs of the worker role */
  jobs: ScheduledJob[];
  /** background loops of the worker role (view flush timer, ...): started by the worker */
  workers: BackgroundWorker[];
  /** called on shutdown, in reverse order of registration */
  onClose(fn: () => Promise<void>): void;
  close(): Promise<void>;
}

export async function createContainer(
  config: Config,
  overrides: ContainerOverrides = {},
): Promise<Container> {
  const logTap = overrides.logTap ?? new LogTap();
  const logger =
    overrides.logger ??
    createLogger({
      level: config.logLevel,
      service: config.serviceName,
      environment: config.deploymentEnvironment,
      tap: logTap,
      secrets: configuredSecrets(config),
      destination: overrides.logDestination,
    });
  const closers: (() => Promise<void>)[] = [];
  const onClose = (fn: () => Promise<void>) => closers.push(fn);

  const database =
    overrides.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: join(config.dataDir, 'pglite') }));
  if (!overrides.database) onClose(() => database.close());
  await seedDatabase(database.db);

  // ioredis is loaded only when REDIS_URL is set (docs/decisions.md, "Idle memory")
  const cache =
    overrides.cache ??
    (config.redisUrl
      ? new (await import('../infrastructure/cache/redis-cache.js')).RedisCache(config.redisUrl, {
          keyPrefix: config.redisKeyPrefix || undefined,
        })
      : new MemoryCache({ maxBytes: config.memoryCacheMaxBytes }));
  if (!overrides.cache) onClose(() => cache.close());

  const clock = overrides.clock ?? systemClock;
  const jobLock = new AdvisoryJobLock(database, logger);
  const queue = new PgBossJobQueue(database, logger);
  // before the database closes; the pipeline stops it earlier still, before telemetry flushes
  onClose(() => queue.stop(config.jobs.shutdownGraceSeconds * 1000));
  const db = database.db;

  const secret = config.auth.secret ?? loadOrCreateSecret(config.dataDir);
  const auth = new AuthService(
    new DrizzleUserRepository(db),
    overrides.hasher ?? new ScryptHasher(),
    new JwtTokens(secret, config.auth.tokenTtlSeconds),
    logger,
    new ZxcvbnCommonPasswords(),
    { registration: config.auth.registration },
  );
  const catalog = new CatalogService(
    new DrizzleTopicRepository(db),
    new DrizzleSourceRepository(db),
    new DrizzleProviderRepository(db),
  );

  const partial: Partial<Services> = {
    auth,
    catalog,
    rateLimiter: new RateLimiter(cache),
    readiness: async () => ({ database: await database.ping(), cache: await cache.ping() }),
  };
  const ctx: WiringContext = {
    config,
    logger,
    logTap,
    database,
    db,
    cache,
    clock,
    jobLock,
    queue,
    llm: new OpenAiLanguageModelFactory(),
    messenger: new TelegramMessenger({ botToken: config.telegram.botToken, apiUrl: config.telegram.apiUrl }),
    services: partial,
    onClose,
  };
  const jobs: ScheduledJob[] = [];
  const workers: BackgroundWorker[] = [];
  for (const wire of AREAS) {
    const area = await wire(ctx);
    Object.assign(partial, area.services);
    jobs.push(...(area.jobs ?? []));
    workers.push(...(area.workers ?? []));
  }
  // every area of Services is wired by now (the HTTP layer relies on it)
  const services = partial as Services;

  const container: Container = {
    config,
    logger,
    database,
    cache,
    clock,
    jobLock,
    queue,
    services,
    jobs,
    workers,
    onClose,
    async close() {
      for (const fn of closers.reverse()) {
        try {
          await fn();
        } catch (err) {
          logger.warn({ event: 'shutdown.close_failed', err });
        }
      }
    },
  };

  if (config.auth.adminEmail && config.auth.adminPassword) {
    const { user, created } = await auth
      .ensureUser({ email: config.auth.adminEmail, password: config.auth.adminPassword, role: 'admin' })
      .catch(async (err: unknown) => {
        // a password the sign-up policy refuses (e.g. a common one) is a set-up problem: exit 1
        if (err instanceof AppError && err.code === 'weak_password') {
          await container.close();
          throw new ConfigError([`ADMIN_PASSWORD: ${err.message}`]);
        }
        throw err;
      });
    logger.info({ event: 'auth.admin_bootstrap', user_id: user.id, created }, 'admin account ready');
  }
  return container;
}
