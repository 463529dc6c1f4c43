/**
 * The api alone in a process of its own, for the bounded-memory soak: its resident set is then the
 * api's, not the test runner's (Vitest, light-my-request, the peers' and the client's own buffers
 * stay out). Started by test/soak/bounded-memory.test.ts with `--expose-gc`, and with the settings
 * of its case as JSON in `SOAK_SERVER_ENV`; talks over IPC: it sends `{ port, articleId, adminToken }`
 * once listening, and answers `stats` with its memory after a full collection, the cache's size and
 * its longest key.
 */
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/composition/container.js';
import { httpOptionsOf } from '../../src/composition/http-options.js';
import { buildApp } from '../../src/http/app.js';
import { ScryptHasher } from '../../src/infrastructure/auth/scrypt-hasher.js';
import type { MemoryCache } from '../../src/infrastructure/cache/memory-cache.js';
import { openDatabase } from '../../src/infrastructure/db/client.js';
import { seedDatabase } from '../../src/infrastructure/db/seed.js';
import { makeArticles, makeTopic } from '../helpers/article-factories.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !process.send) throw new Error('start with --expose-gc and an IPC channel');

const database = await openDatabase({
  dataDir: 'memory://',
  loadDataDir: new Blob([readFileSync(process.env.PGLITE_DUMP!)]),
  migrate: false,
});
await seedDatabase(database.db);
const config = loadConfig({
  AUTH_SECRET: 'soak-secret-soak-secret-soak-secret-0123',
  DATA_DIR: '/tmp/article-intel-soak',
  LOG_LEVEL: 'silent',
  SCHEDULER_ENABLED: 'false',
  RATE_LIMIT_VIEWS_PER_MINUTE: '1000000',
  MEMORY_CACHE_MAX_MB: '8',
  ...(JSON.parse(process.env.SOAK_SERVER_ENV ?? '{}') as Record<string, string>),
});
const container = await createContainer(config, {
  database,
  logger: pino({ level: 'silent' }),
  hasher: new ScryptHasher({ N: 1024, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }),
});
const app = await buildApp(container.services, container.logger, httpOptionsOf(config, container.telemetry));
await app.listen({ port: 0, host: '127.0.0.1' });
const topic = await makeTopic(database.db);
const [article] = await makeArticles(database.db, 1, () => ({ topicId: topic.id }));
const { port } = app.server.address() as { port: number };
const admin = { email: 'soak-admin@example.test', password: 'soak-password-123', role: 'admin' as const };
await container.services.auth.ensureUser(admin);
const { access_token: adminToken } = await container.services.auth.login(admin);

process.on('message', (m: unknown) => {
  if (m === 'stop') {
    void app
      .close()
      .then(() => container.close())
      .then(() => database.close())
      .finally(() => process.exit(0));
    return;
  }
  if (m !== 'stats') return;
  void (async () => {
    for (let i = 0; i < 5; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 50));
    }
    const cache = container.cache as MemoryCache;
    let longestKey = 0;
    for await (const keys of cache.scan(''))
      for (const k of keys) longestKey = Math.max(longestKey, k.length);
    const { rss, heapUsed, external } = process.memoryUsage();
    process.send!({ rss, heapUsed, external, cacheBytes: cache.size, longestKey });
  })();
});
process.send({ port, articleId: article!.id, adminToken });
