import { embeddedDatabaseDir } from '../infrastructure/db/data-dir.js';
import type { Logger as Pino } from 'pino';
import { ConfigError, type Config } from '../config.js';
import { configuredSecrets } from './secrets.js';
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
import { DrizzlePasswordResetRepository } from '../infrastructure/db/repositories/password-reset.repository.js';
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
import { wireGoogleReader } from './greader.js';
import { RateLimiter } from '../application/shared/rate-limit.js';
import { LoginThrottle } from '../application/auth/login-throttle.js';
import { systemClock, type Clock, type JobLock, type KeyValueCache } from '../application/shared/ports.js';
import type { Services } from '../http/services.js';
import type { ScheduledJob } from '../jobs/scheduler.js';
import { OpenAiLanguageModelFactory } from '../infrastructure/llm/openai-language-model.js';
import { DrizzleLlmUsageStore } from '../infrastructure/db/repositories/llm-usage.repository.js';
import { LlmUsageRecorder, MeteredLanguageModelFactory } from '../application/shared/llm-usage.js';
import { TelegramMessenger } from '../infrastructure/messenger/telegram-messenger.js';
import { wireUsers } from './users.js';
import { wireProviderTest } from './provider-test.js';
import { wireOpml } from './opml.js';
import { wireWorks } from './works.js';
import { wireMetrics } from './metrics.js';
import { wireMonitoring } from './monitoring.js';
import type { BackgroundWorker, WiringContext } from './context.js';
import type { ArticleTagger } from '../application/shared/tagging.js';
import { wireReports } from './reports.js';
import { wireArticles } from './articles.js';
import { wireTags } from './tags.js';
import { wirePipeline, type TelemetryHandle } from './pipeline.js';
import type { ParsePoolOptions } from '../infrastructure/feeds/parse-pool.js';
import type { WeeklyReportService } from '../application/reports/weekly-report.service.js';
import type { MetricRefreshService } from '../application/metrics/metric-refresh.service.js';
import { wireRuns } from './runs.js';
import { wireSources } from './sources.js';
import { wireTokens } from './tokens.js';
import { wireAssistant } from './assistant.js';
import { wireAsk } from './ask.js';
import { wireWebhooks } from './webhooks.js';
import { CachedEnabledMetrics } from '../application/articles/enabled-metrics-cache.js';
import { DrizzleEnabledMetrics } from '../infrastructure/db/repositories/article.repository.js';

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
  /** the feed and page parsing's threads and time limit (tests shorten the limit) */
  parse?: ParsePoolOptions;
}

export { configuredSecrets } from './secrets.js';

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
  /** what the HTTP layer calls: routes use every member */
  services: Services;
  /**
   * The batch use cases the runs wrap (services.jobs), for what drives them outside a run: the CLI
   * checks a weekly-report request before it records one; tests call them directly.
   */
  batch: { weeklyReports: WeeklyReportService; metricRefresh: MetricRefreshService };
  /** the Prometheus text of the instruments (GET /metrics) and the flush of held spans and logs */
  telemetry: TelemetryHandle;
  /** the pipeline's tagger (tags area), for tools that tag outside a run */
  tagger: ArticleTagger;
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
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: embeddedDatabaseDir(config.dataDir) }));
  if (!overrides.database) onClose(() => database.close());
  await seedDatabase(database.db);

  // ioredis is loaded only when REDIS_URL is set (docs/decisions/0003-idle-memory.md)
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
  // every model call's tokens, per day, purpose and run: the last ones are written after the queue
  // has stopped (its jobs make calls until then) and before the database closes
  const llmUsageStore = new DrizzleLlmUsageStore(database.db);
  const llmUsage = new LlmUsageRecorder(llmUsageStore, logger);
  onClose(() => llmUsage.flush());
  const queue = new PgBossJobQueue(database, logger);
  // before the database closes; the pipeline stops it earlier still, before telemetry flushes
  onClose(() => queue.stop(config.jobs.shutdownGraceSeconds * 1000));
  const db = database.db;

  const secret = config.auth.secret ?? loadOrCreateSecret(config.dataDir);
  const hasher = overrides.hasher ?? new ScryptHasher();
  const auth = new AuthService(
    new DrizzleUserRepository(db),
    hasher,
    new JwtTokens(secret, config.auth.tokenTtlSeconds),
    logger,
    new ZxcvbnCommonPasswords(),
    new DrizzlePasswordResetRepository(db),
    { registration: config.auth.registration },
  );
  const catalog = new CatalogService(
    new DrizzleTopicRepository(db),
    new DrizzleSourceRepository(db),
    new DrizzleProviderRepository(db),
  );

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
    llm: new MeteredLanguageModelFactory(
      new OpenAiLanguageModelFactory({ maxConcurrency: config.jobs.llmConcurrency, logger }),
      llmUsage,
    ),
    llmUsage: llmUsageStore,
    hasher,
    messenger: new TelegramMessenger({ botToken: config.telegram.botToken, apiUrl: config.telegram.apiUrl }),
    onClose,
  };
  // each area gets what it needs from the areas before it as arguments: the order is the compiler's
  const monitoring = wireMonitoring(ctx);
  const users = wireUsers(ctx, { auth });
  const tokens = wireTokens(ctx);
  const providerTest = wireProviderTest(ctx);
  const opml = wireOpml(ctx);
  const works = wireWorks(ctx);
  // what every list sorted by a metric checks its key against: kept, cleared by the catalog's changes
  const enabledMetrics = new CachedEnabledMetrics(new DrizzleEnabledMetrics(ctx.db));
  const metrics = wireMetrics(ctx, {
    onLinks: works.linkJobs.onLinks,
    onCatalogChange: () => enabledMetrics.invalidate(),
  });
  const tags = await wireTags(ctx);
  const webhooks = wireWebhooks(ctx);
  const reports = wireReports(ctx, { webhooks: webhooks.events });
  const articles = wireArticles(ctx, {
    embedder: tags.embedder,
    reports: reports.services.reports,
    enabledMetrics,
  });
  const ask = wireAsk(ctx, { embedder: tags.embedder });
  const pipeline = await wirePipeline(
    ctx,
    { tagger: tags.tagger, webhooks: webhooks.events, onPublished: metrics.lookUpArrivalsSoon },
    { parse: overrides.parse },
  );
  const sources = wireSources(ctx, { catalog, scraper: pipeline.services.scraper });
  const assistant = wireAssistant(ctx, {
    articles: articles.services.articles,
    catalog,
    reports: reports.services.reports,
    similar: articles.services.similar,
    readState: articles.services.readState,
    favorites: articles.services.favorites,
    scope: pipeline.scope,
  });
  const greader = wireGoogleReader(ctx, {
    ...articles.services,
    catalog,
    ...sources.services,
    ...users.services,
    auth,
    ...tokens.services,
    enabledMetrics,
  });
  const runs = await wireRuns(ctx, {
    metricRefresh: metrics.metricRefresh,
    weeklyReports: reports.weeklyReports,
    webhooks: webhooks.events,
  });
  const areas = [
    monitoring,
    users,
    tokens,
    providerTest,
    opml,
    works,
    metrics,
    tags,
    webhooks,
    reports,
    articles,
    ask,
    pipeline,
    sources,
    assistant,
    greader,
    runs,
  ];
  const services: Services = {
    auth,
    catalog,
    rateLimiter: new RateLimiter(cache),
    loginThrottle: new LoginThrottle(cache),
    readiness: async () => ({ database: await database.ping(), cache: await cache.ping() }),
    ...monitoring.services,
    ...users.services,
    ...tokens.services,
    ...providerTest.services,
    ...opml.services,
    ...works.services,
    ...metrics.services,
    ...tags.services,
    ...webhooks.services,
    ...reports.services,
    ...articles.services,
    ...ask.services,
    ...pipeline.services,
    ...sources.services,
    ...assistant.services,
    ...greader.services,
    ...runs.services,
  };
  const jobs: ScheduledJob[] = areas.flatMap((a) => a.jobs ?? []);
  const workers = areas.flatMap((a) => a.workers ?? []);

  const container: Container = {
    config,
    logger,
    database,
    cache,
    clock,
    jobLock,
    queue,
    services,
    batch: { weeklyReports: reports.weeklyReports, metricRefresh: metrics.metricRefresh },
    telemetry: pipeline.telemetry,
    tagger: tags.tagger,
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
