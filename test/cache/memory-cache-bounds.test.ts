import { describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/infrastructure/cache/memory-cache.js';

/** The in-memory cache's size cap: volatile-lru, as Redis would do it under maxmemory. */
describe('memory cache size cap', () => {
  it('evicts the least recently used keys with a TTL, never the counters without one', async () => {
    const cache = new MemoryCache({ maxBytes: 256 * 1024 });
    try {
      // counters first: they must all survive whatever comes after
      for (let i = 0; i < 200; i++) await cache.incrBy(`view:${i}`, i + 1);
      await cache.setIfAbsent('viewed:kept:1', '1', 3600);
      for (let i = 0; i < 20_000; i++) {
        await cache.incrOnce(`viewed:10.0.${i >> 8}.${i & 255}:a`, 86_400, 'view:a');
        await cache.incrWithTtl(`ratelimit:view:1:10.0.${i >> 8}.${i & 255}`, 61);
        // a key in use stays: reading it moves it to the young end
        if (i % 100 === 0) expect(await cache.get('viewed:kept:1')).toBe('1');
      }
      expect(cache.size).toBeLessThanOrEqual(256 * 1024);
      expect(cache.evictions).toBeGreaterThan(30_000);
      for (let i = 0; i < 200; i++) expect(await cache.get(`view:${i}`)).toBe(String(i + 1));
      expect(await cache.get('view:a')).toBe('20000');
      expect(await cache.get('viewed:kept:1')).toBe('1');
      // the newest de-duplication keys are still there, the oldest were dropped
      expect(await cache.get('viewed:10.0.78.31:a')).toBe('1');
      expect(await cache.get('viewed:10.0.0.0:a')).toBeNull();
    } finally {
      await cache.close();
    }
  });

  it('keeps its byte count exact through overwrites, takes and deletes', async () => {
    const cache = new MemoryCache({ maxBytes: 1024 * 1024 });
    try {
      await cache.set('a', 'x'.repeat(100), 60);
      await cache.set('a', 'y', 60);
      await cache.incrBy('c', 3);
      await cache.take(['c']);
      await cache.del('a');
      expect(cache.size).toBe(0);
    } finally {
      await cache.close();
    }
  });
});
