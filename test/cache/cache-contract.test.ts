import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheKinds, createTestCache } from '../helpers/db.js';
import type { KeyValueCache } from '../../src/application/shared/ports.js';

/** One contract, two adapters (memory and Redis): the service behaves the same on either. */
describe.each(cacheKinds())('cache contract: %s', (kind) => {
  let cache: KeyValueCache;
  beforeAll(() => {
    cache = createTestCache(kind);
  });
  afterAll(() => cache.close());

  it('sets, gets and deletes', async () => {
    await cache.set('k1', 'v1');
    expect(await cache.get('k1')).toBe('v1');
    await cache.del('k1');
    expect(await cache.get('k1')).toBeNull();
  });

  it('setIfAbsent sets once and carries a TTL', async () => {
    expect(await cache.setIfAbsent('nx', '1', 100)).toBe(true);
    expect(await cache.setIfAbsent('nx', '2', 100)).toBe(false);
    expect(await cache.get('nx')).toBe('1');
    const ttl = await cache.ttl('nx');
    expect(ttl).toBeGreaterThan(90);
    expect(ttl).toBeLessThanOrEqual(100);
  });

  it('expires keys after their TTL', async () => {
    await cache.set('short', 'x', 1);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await cache.get('short')).toBeNull();
    expect(await cache.ttl('short')).toBe(-2);
  });

  it('increments atomically under concurrency', async () => {
    await Promise.all(Array.from({ length: 200 }, () => cache.incrBy('counter')));
    expect(await cache.get('counter')).toBe('200');
    expect(await cache.incrBy('counter', 5)).toBe(205);
  });

  it('incrWithTtl counts a window and sets its TTL once', async () => {
    expect(await cache.incrWithTtl('win', 50)).toBe(1);
    expect(await cache.incrWithTtl('win', 50)).toBe(2);
    expect(await cache.ttl('win')).toBeGreaterThan(40);
  });

  it('incrWithTtl gives each of many concurrent calls its own count (one batch on Redis)', async () => {
    // 300 calls in one turn: more than one script call's worth on Redis, two keys interleaved
    const counts = await Promise.all(
      Array.from({ length: 300 }, (_, i) => cache.incrWithTtl(i % 3 === 0 ? 'win:b' : 'win:a', 30 + (i % 3))),
    );
    const a = counts.filter((_, i) => i % 3 !== 0).sort((x, y) => x - y);
    const b = counts.filter((_, i) => i % 3 === 0).sort((x, y) => x - y);
    expect(a).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(b).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    // the TTL is the one of the call that created the key
    expect(await cache.ttl('win:a')).toBeGreaterThan(25);
    expect(await cache.ttl('win:a')).toBeLessThanOrEqual(31);
    expect(await cache.ttl('win:b')).toBeLessThanOrEqual(30);
  });

  it('incrOnce counts once per key under concurrency and sets the TTL', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () => cache.incrOnce('once:a', 100, 'cnt:a')),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await cache.get('cnt:a')).toBe('1');
    expect(await cache.ttl('once:a')).toBeGreaterThan(90);
    expect(await cache.incrOnce('once:b', 100, 'cnt:a')).toBe(true);
    expect(await cache.get('cnt:a')).toBe('2');
  });

  it('take reads and deletes so a value is never read twice', async () => {
    await cache.incrBy('t', 3);
    await cache.incrBy('u', 2);
    const [a, b] = await Promise.all([cache.take(['t', 'u', 'none']), cache.take(['u', 't'])]);
    // each value went to exactly one of the two calls
    expect([a[0], b[1]].filter(Boolean)).toEqual(['3']);
    expect([a[1], b[0]].filter(Boolean)).toEqual(['2']);
    expect(a[2]).toBeNull();
    expect(await cache.get('t')).toBeNull();
    expect(await cache.take([])).toEqual([]);
  });

  it('scans keys by prefix in batches', async () => {
    await Promise.all(Array.from({ length: 25 }, (_, i) => cache.set(`scan:${i}`, String(i))));
    await cache.set('other:1', 'x');
    const seen = new Set<string>();
    for await (const batch of cache.scan('scan:', 10)) for (const k of batch) seen.add(k);
    expect(seen.size).toBe(25);
    expect([...seen].every((k) => k.startsWith('scan:'))).toBe(true);
  });

  it('answers ping', async () => {
    expect(await cache.ping()).toBe(true);
  });
});
