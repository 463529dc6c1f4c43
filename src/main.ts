/**
 * Composition root and process entry: `tsx src/main.ts [all|api|web|worker]` (npm start = all).
 * Builds the adapters once, injects them, starts the roles and shuts them down gracefully.
 */
import { loadConfig, ConfigError, type Config } from './config.js';
import { createContainer, type Container } from './composition/container.js';
import { buildApp } from './http/app.js';
import { Scheduler } from './jobs/scheduler.js';
import { startWebRole } from './composition/web.js';
import { shutdownLine } from './composition/shutdown-line.js';
import { logMonitorStores } from './composition/monitoring.js';
import { releaseStartupMemory, warnOnOldRuntime } from './runtime.js';
import { DataDirError } from './infrastructure/db/data-dir.js';
import { httpOptionsOf } from './composition/http-options.js';
import { localAdminChannel } from './composition/local-admin.js';

type Role = 'all' | 'api' | 'web' | 'worker';
const ROLES: Role[] = ['all', 'api', 'web', 'worker'];
/** when releaseStartupMemory runs after start: the scheduler's and workers' first ticks are done */
const STARTUP_SETTLE_MS = 5000;

export interface Running {
  container: Container;
  apiUrl?: string;
  webUrl?: string;
  stop(): Promise<void>;
}

export async function start(role: Role, config: Config): Promise<Running> {
  const container = await createContainer(config);
  const { logger } = container;
  const stops: (() => Promise<void>)[] = [];
  let apiUrl: string | undefined;
  let webUrl: string | undefined;

  if (role === 'all' || role === 'api') {
    // the CLI beside this service on the embedded database comes in through this channel
    const channel = localAdminChannel(container.database.kind, config.dataDir);
    const app = await buildApp(container.services, logger, {
      ...httpOptionsOf(config, container.telemetry),
      localAdminSecret: channel?.secret,
    });
    apiUrl = await app.listen({ host: config.api.host, port: config.api.port });
    if (channel) {
      // removed first on stop: a CLI started from then on opens the database once it is free
      const unpublish = channel.publish(app.server.address());
      stops.push(async () => unpublish());
    }
    logger.info({ event: 'api.listening', url: apiUrl });
    logMonitorStores(config, logger);
    // app.close waits for in-flight requests before resolving
    stops.push(() => app.close());
  }
  if (role === 'all' || role === 'web') {
    const web = await startWebRole(container, apiUrl);
    if (web) {
      webUrl = web.url;
      stops.push(web.stop);
    }
  }
  if (role === 'all' || role === 'worker') {
    const scheduler = new Scheduler(
      config.jobs.schedulerEnabled ? container.jobs : [],
      container.jobLock,
      container.queue,
      logger,
    );
    await scheduler.start();
    for (const w of container.workers) w.start();
    stops.push(async () => {
      await scheduler.stop();
      // workers stop taking jobs, finish or hand back the running ones within SHUTDOWN_GRACE_SECONDS
      // and flush what they hold (e.g. the last view counts) before the stores close
      for (const w of container.workers) await w.stop();
    });
  }
  logger.info({
    event: 'process.started',
    role,
    database: container.database.kind,
    cache: container.cache.kind,
    node_version: process.versions.node,
  });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // the signal's line has said what this waits for; the steps are for debugging
      logger.debug({ event: 'process.stopping', role });
      for (const s of stops) {
        try {
          await s();
        } catch (err) {
          logger.warn({ event: 'process.stop_failed', err });
        }
      }
      await container.close();
      logger.info({ event: 'process.stopped', role });
    })());
  return { container, apiUrl, webUrl, stop };
}

async function main() {
  warnOnOldRuntime();
  const role = (process.argv[2] ?? 'all') as Role;
  if (!ROLES.includes(role)) {
    console.error(`unknown role "${role}"; use one of ${ROLES.join(', ')}`);
    process.exit(2);
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  let running: Running;
  try {
    running = await start(role, config);
  } catch (e) {
    // another process holds this PGlite DATA_DIR: a second open would corrupt it (issue 15)
    if ((e as { code?: unknown }).code === 'data_dir_locked') {
      console.error((e as Error).message);
      process.exit(2);
    }
    // e.g. an ADMIN_PASSWORD the password policy refuses
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  // start-up garbage (Node 24's module loader, the first jobs' queue set-up) back to the system,
  // once the first seconds of work are done
  setTimeout(() => {
    try {
      releaseStartupMemory();
    } catch (err) {
      running.container.logger.warn({ event: 'process.memory_release_failed', err });
    }
  }, STARTUP_SETTLE_MS).unref();
  const onSignal = (signal: string) => {
    const { container } = running;
    // the grace period for running jobs, plus time to flush telemetry and close the stores
    const limitSeconds = config.jobs.shutdownGraceSeconds + 15;
    const work = {
      runs: [
        ...(container.services.scraper?.busy ? ['scrape'] : []),
        ...(container.services.runs?.activeKinds() ?? []),
      ],
      jobs: container.queue.running(),
      graceSeconds: config.jobs.shutdownGraceSeconds,
      limitSeconds,
    };
    container.logger.info(
      { event: 'process.signal', signal, runs: work.runs, jobs: work.jobs, limit_seconds: limitSeconds },
      shutdownLine(signal, work),
    );
    const timer = setTimeout(() => {
      container.logger.error({ event: 'process.stop_timeout' }, 'graceful stop took too long');
      process.exit(1);
    }, limitSeconds * 1000);
    timer.unref();
    void running.stop().then(() => process.exit(0));
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

const isEntry =
  process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (isEntry) {
  main().catch((err: unknown) => {
    // a DATA_DIR that cannot be used is a set-up problem: one clear line, no stack
    console.error(err instanceof DataDirError ? err.message : err);
    process.exit(1);
  });
}
