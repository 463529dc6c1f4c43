import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/infrastructure/db/client.js';
import { seedDatabase } from '../../src/infrastructure/db/seed.js';
import { MemoryCache } from '../../src/infrastructure/cache/memory-cache.js';
import { RedisCache } from '../../src/infrastructure/cache/redis-cache.js';
import type { KeyValueCache } from '../../src/application/shared/ports.js';
import { createScratchDatabase } from './scratch-database.js';
import { PgliteImage } from './pglite-image.js';
import { PglitePool } from './pglite-pool.js';

/** this process's PGlite instances, handed from one test database to the next (pglite-pool.ts) */
let pool: Promise<PglitePool> | undefined;

export type DbKind = 'pglite' | 'postgres';
export type CacheKind = 'memory' | 'redis';

/** PGlite always; the real PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export const dbKinds = (): DbKind[] => [
  'pglite',
  ...(process.env.TEST_DATABASE_URL ? (['postgres'] as const) : []),
];
export const cacheKinds = (): CacheKind[] => [
  'memory',
  ...(process.env.TEST_REDIS_URL ? (['redis'] as const) : []),
];

/**
 * A fresh, migrated and seeded database. On PGlite, a lease on one of the process's instances
 * (pglite-pool.ts), each started from the dump made in global set-up (an image of it loaded once
 * per process: pglite-image.ts) and reset when a lease is closed; on PostgreSQL each call creates
 * its own database (dropped by close) as a copy of the migrated template made there. Test files
 * never share rows.
 */
export async function createTestDatabase(kind: DbKind = 'pglite'): Promise<Database> {
  if (kind === 'pglite') {
    // already seeded: the image was seeded once, when it was loaded (pglite-image.ts)
    if (!pool) {
      const loading = PgliteImage.of(inject('pgliteDump')).then((image) => new PglitePool(image));
      // a failed load is tried again by the next test database
      loading.catch(() => {
        if (pool === loading) pool = undefined;
      });
      pool = loading;
    }
    return (await pool).lease();
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  // a copy of the migrated template (global set-up); its own migration run then finds nothing to do
  const scratch = await createScratchDatabase(adminUrl, 't', inject('pgTemplate') || undefined);
  const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 5 });
  await seedDatabase(database.db);
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

/** A cache of the given kind; Redis caches get their own key prefix so test files never collide. */
export function createTestCache(kind: CacheKind = 'memory'): KeyValueCache {
  if (kind === 'memory') return new MemoryCache();
  const url = process.env.TEST_REDIS_URL;
  if (!url) throw new Error('TEST_REDIS_URL is not set');
  return new RedisCache(url, { keyPrefix: `t:${randomBytes(4).toString('hex')}:` });
}
