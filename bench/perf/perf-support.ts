/**
 * What the issue-24 scenarios (search.pathological, reader.view, similar) share: a scratch
 * PostgreSQL database, the real api role in process, timed GETs over loopback and rounds.
 * Only the service's public surface is used: its composition root, its migrations and its HTTP
 * routes; data goes in through SQL on the documented tables.
 */
import { createScratchDatabase } from '../support/scratch-database.js';
import { median } from '../rounds.js';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import {
  loadConfig,
  createContainer,
  type Container,
  buildApp,
  openDatabase,
  type Database,
  seedDatabase,
  MemoryCache,
} from '../../src/composition/bench-entry.js';

export interface ScratchDatabase {
  database: Database;
  url: string;
  drop(): Promise<void>;
}

/** A new migrated database `perf_<tag>_<random>` on the bench server, dropped afterwards. */
export async function scratchDatabase(adminUrl: string, tag: string): Promise<ScratchDatabase> {
  const scratch = await createScratchDatabase(adminUrl, `perf_${tag}`);
  const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 10 });
  await seedDatabase(database.db);
  return {
    database,
    url: scratch.url,
    async drop() {
      await database.close();
      await scratch.drop();
    },
  };
}

export interface Service {
  app: FastifyInstance;
  container: Container;
  base: string;
  close(): Promise<void>;
}

/**
 * The api role on loopback over `database` (PostgreSQL when `url` is given, else the PGlite it
 * is), logging off; the per-client limits off unless `env` sets them (a bench is one client).
 */
export async function startService(
  database: Database,
  url: string | undefined,
  env: Record<string, string> = {},
): Promise<Service> {
  const config = loadConfig({
    ...(url ? { DATABASE_URL: url } : {}),
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    DATA_DIR: `${tmpdir()}/article-intel-perf`,
    LOG_LEVEL: 'silent',
    SCHEDULER_ENABLED: 'false',
    RATE_LIMIT_VIEWS_PER_MINUTE: '0',
    RATE_LIMIT_SEARCH_PER_MINUTE: '0',
    RATE_LIMIT_SIMILAR_PER_MINUTE: '0',
    ...env,
  });
  const container = await createContainer(config, {
    database,
    cache: new MemoryCache(),
    logger: pino({ level: 'silent' }),
    // feeds parsed in worker threads, as the built service does
    parse: {},
  });
  const app = await buildApp(container.services, container.logger, {
    trustedProxies: config.trustedProxies,
    rateLimits: config.rateLimits,
    exposeDocs: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    container,
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    async close() {
      await app.close();
      await container.close();
    },
  };
}

/** One client: a kept-alive connection of its own. */
export function client() {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    /** ms until the whole body is read; throws on another status than `expect` */
    async get(base: string, path: string, expect = 200): Promise<number> {
      const t0 = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${base}${path}`, { agent }, (res) => {
          res.on('data', () => {});
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end();
      });
      if (status !== expect) throw new Error(`GET ${path} answered ${status}`);
      return performance.now() - t0;
    },
    close: () => agent.destroy(),
  };
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export const round2 = (x: number) => Number(x.toFixed(2));

/**
 * median and min–max of some rounds' figures, for a result's notes (the figure a budget judges
 * states its rounds with bench/rounds.ts `roundsOf`)
 */
export function overRounds(figures: readonly number[]) {
  return {
    median: round2(median(figures)),
    spread: `${round2(Math.min(...figures))}–${round2(Math.max(...figures))}`,
    rounds: figures.map(round2),
  };
}

/** the load of the machine while the scenario ran (it is shared) */
export async function loadNote(): Promise<string> {
  const { loadavg, cpus } = await import('node:os');
  return `load ${loadavg()
    .map((l) => l.toFixed(1))
    .join('/')} on ${cpus().length} cores`;
}
