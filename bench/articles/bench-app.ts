import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import {
  loadConfig,
  createContainer,
  type Container,
  buildApp,
  type Database,
  type KeyValueCache,
} from '../../src/composition/bench-entry.js';

export interface BenchApp {
  app: FastifyInstance;
  container: Container;
  base: string;
  close(): Promise<void>;
}

/**
 * Seconds after a view until the service moves the viewed article's counter into the stored count
 * (VIEW_COUNT_RECENT_FLUSH_SECONDS, its default): a bench that counts stored views waits this long.
 */
export const RECENT_FLUSH_SECONDS = 2;

/** The real api role on loopback (port 0) over the given stores, logging off, limits off. */
export async function startBenchApp(
  database: Database,
  url: string,
  cache: KeyValueCache,
): Promise<BenchApp> {
  const config = loadConfig({
    DATABASE_URL: url,
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    DATA_DIR: `${tmpdir()}/article-intel-bench`,
    LOG_LEVEL: 'silent',
    SCHEDULER_ENABLED: 'false',
    RATE_LIMIT_VIEWS_PER_MINUTE: '0',
    RATE_LIMIT_SEARCH_PER_MINUTE: '0',
    RATE_LIMIT_SIMILAR_PER_MINUTE: '0',
    VIEW_COUNT_RECENT_FLUSH_SECONDS: String(RECENT_FLUSH_SECONDS),
  });
  const logger = pino({ level: 'silent' });
  const container = await createContainer(config, { database, cache, logger });
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

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET over a kept-alive loopback connection; resolves with the status once the body is read. */
export function httpGet(base: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

export const closeAgent = () => agent.destroy();
