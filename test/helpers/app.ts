import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { loadConfig } from '../../src/config.js';
import { createContainer, type Container } from '../../src/composition/container.js';
import { buildApp } from '../../src/http/app.js';
import { httpOptionsOf } from '../../src/composition/http-options.js';
import { ScryptHasher } from '../../src/infrastructure/auth/scrypt-hasher.js';
import type { Database } from '../../src/infrastructure/db/client.js';
import type { KeyValueCache } from '../../src/application/shared/ports.js';
import type { ParsePoolOptions } from '../../src/infrastructure/feeds/parse-pool.js';
import { createTestCache, createTestDatabase, type CacheKind, type DbKind } from './db.js';

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  /** registers a user (promoted to admin when asked) and returns its bearer header and id */
  login(
    role?: 'user' | 'admin',
    email?: string,
  ): Promise<{ id: string; token: string; headers: { authorization: string } }>;
  close(): Promise<void>;
}

let counter = 0;

export async function buildTestApp(
  opts: {
    env?: Record<string, string>;
    db?: DbKind;
    cache?: CacheKind;
    database?: Database;
    cacheInstance?: KeyValueCache;
    /** a logger of the test's own (e.g. to read what was logged) */
    logger?: Logger;
    /** the feed and page parsing's threads and time limit */
    parse?: ParsePoolOptions;
  } = {},
): Promise<TestApp> {
  const database = opts.database ?? (await createTestDatabase(opts.db));
  const cache = opts.cacheInstance ?? createTestCache(opts.cache);
  const config = loadConfig({
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    DATA_DIR: '/tmp/article-intel-test',
    LOG_LEVEL: 'silent',
    SCHEDULER_ENABLED: 'false',
    // tests register many users from one address; the rate-limit test sets its own limits
    RATE_LIMIT_LOGIN_PER_MINUTE: '0',
    RATE_LIMIT_REGISTER_PER_HOUR: '0',
    RATE_LIMIT_VIEWS_PER_MINUTE: '0',
    RATE_LIMIT_SEARCH_PER_MINUTE: '0',
    RATE_LIMIT_SIMILAR_PER_MINUTE: '0',
    RATE_LIMIT_ASK_PER_MINUTE: '0',
    ...opts.env,
  });
  const container = await createContainer(config, {
    database,
    cache,
    logger: opts.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    hasher: new ScryptHasher({ N: 1024, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }),
    parse: opts.parse,
  });
  const app = await buildApp(
    container.services,
    container.logger,
    httpOptionsOf(config, container.telemetry),
  );
  await app.ready();
  return {
    app,
    container,
    async login(role = 'user', email) {
      const address = email ?? `${role}${++counter}-${Date.now()}@example.test`;
      const { user } = await container.services.auth.ensureUser({
        email: address,
        password: 'password-123',
        role,
      });
      const session = await container.services.auth.login({ email: address, password: 'password-123' });
      return {
        id: user.id,
        token: session.access_token,
        headers: { authorization: `Bearer ${session.access_token}` },
      };
    },
    async close() {
      await app.close();
      await container.close();
      if (!opts.cacheInstance) await cache.close();
      if (!opts.database) await database.close();
    },
  };
}

/**
 * Switches a catalog metric on or off as an admin does, through the catalog service: the enabled
 * keys the service keeps for sorting follow at once (a write to the table alone shows within
 * their 10 s, as another process's would).
 */
export async function switchMetric(t: TestApp, metricKey: string, enabled: boolean): Promise<void> {
  const catalog = t.container.services.metricCatalog;
  const def = (await catalog.listAdmin()).find((d) => d.metric_key === metricKey);
  if (!def) throw new Error(`no metric definition ${metricKey}`);
  await catalog.update(def.id, { enabled });
}
