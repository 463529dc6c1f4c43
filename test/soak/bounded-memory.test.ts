import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticles, makeTopic } from '../helpers/article-factories.js';
import { HttpPeer } from '../peers/http-peer.js';
import { monitorEnv } from '../peers/monitor-peers.js';
import type { MemoryCache } from '../../src/infrastructure/cache/memory-cache.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MB = 1024 * 1024;
/** resident memory after a full collection: what the process keeps, not what it has not freed yet */
const settledRss = async () => {
  for (let i = 0; i < 5; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  return process.memoryUsage().rss;
};

/**
 * Memory keyed by client input stays bounded: fake and rotating addresses (issue 16: 4,000 requests
 * with 8 KB fake addresses took +62 MB) and large monitoring answers (25 answers of 8 MB: +440 MB).
 */
describe('bounded memory under hostile input', () => {
  const apps: TestApp[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  it(
    '10,000 views with 8 KB fake addresses and rotating IPv6 clients keep the heap within 50 MB and the cache within its cap',
    { timeout: 120_000 },
    async () => {
      const t = await buildTestApp({
        cache: 'memory',
        env: { RATE_LIMIT_VIEWS_PER_MINUTE: '1000000', MEMORY_CACHE_MAX_MB: '8' },
      });
      apps.push(t);
      const topic = await makeTopic(t.container.database.db);
      const [article] = await makeArticles(t.container.database.db, 1, () => ({ topicId: topic.id }));
      const view = (i: number, hostile: boolean) =>
        t.app.inject({
          method: 'POST',
          url: `/articles/${article!.id}/view`,
          remoteAddress: '127.0.0.1',
          headers: {
            'x-forwarded-for': !hostile
              ? '198.51.100.1'
              : i % 2
                ? // a forged 8 KB "address" from a client behind the trusted proxy
                  `${'f'.repeat(8 * 1024 - 8)}${i.toString(16).padStart(8, '0')}`
                : // a real client rotating its IPv6 address, each time in a new /64
                  `2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::${i.toString(16)}`,
          },
        });
      // RSS is printed (SOAK_DEBUG=1), not asserted: under Vitest, 10,000 app.inject calls with 8 KB
      // headers raise RSS by ~100 MB with the heap flat (+4 MB), also on GET /health, where no code of
      // ours reads the header (docs/decisions.md, "Bounded memory"). What the app keeps is the heap
      // and the cache, asserted here.
      for (let i = 0; i < 2000; i++) await view(i, true); // warm-up: JIT, pools, first keys
      const start = await settledRss();
      const heapStart = process.memoryUsage().heapUsed;
      for (let i = 0; i < 10_000; i++) expect((await view(i, false)).statusCode).toBe(204);
      const afterControl = await settledRss();
      for (let i = 2000; i < 12_000; i++) expect((await view(i, true)).statusCode).toBe(204);
      const afterHostile = await settledRss();
      const heapGrown = process.memoryUsage().heapUsed - heapStart;
      const control = afterControl - start;
      const hostile = afterHostile - afterControl;
      if (process.env.SOAK_DEBUG)
        console.log({ control: control / MB, hostile: hostile / MB, heap: heapGrown / MB });
      const cache = t.container.cache as MemoryCache;
      expect(cache.size).toBeLessThanOrEqual(8 * MB);
      // every key is made of a canonical address: no 8 KB header ever became a key
      let longest = 0;
      for await (const keys of cache.scan('')) for (const k of keys) longest = Math.max(longest, k.length);
      expect(longest).toBeLessThan(150);
      expect(heapGrown).toBeLessThan(50 * MB);
    },
  );

  // RSS is the allocator's view: a reading can land mid-way through handing pages back, so a reading
  // over the bound is taken again (a leak fails every time)
  it('30 large (8 MB) monitoring answers keep RSS within 50 MB', { timeout: 240_000, retry: 2 }, async () => {
    // one 8 MB matrix, sent for every question (questions differ, so each is a new last-good entry)
    const values = Array.from({ length: 300_000 }, (_, i) => `[${1_700_000_000 + i},"${(i % 997) / 7}"]`);
    const body = `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"m"},"values":[${values.join(',')}]}]}}`;
    expect(body.length).toBeGreaterThan(7.5 * MB);
    const peer = await new HttpPeer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    }).start();
    try {
      const t = await buildTestApp({ env: { ...monitorEnv(peer.url), MONITOR_CACHE_MAX_MB: '16' } });
      apps.push(t);
      const admin = (await t.login('admin')).headers;
      const ask = async (i: number) => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/monitor/metrics?query=${encodeURIComponent(`sum(rate(m_${i}[5m]))`)}&start=1&end=2&step=60`,
          headers: admin,
        });
        expect(res.statusCode).toBe(200);
      };
      // warm-up: the heap and the allocator reach the size one 8 MB answer needs (parse, copy, send)
      for (let i = 0; i < 10; i++) await ask(i);
      const before = await settledRss();
      for (let i = 10; i < 40; i++) await ask(i);
      // what the process keeps: the lowest of a few settled readings (the allocator hands freed
      // pages back lazily, so one reading right after a burst of 8 MB buffers overstates it)
      let after = Infinity;
      for (let i = 0; i < 4; i++) {
        after = Math.min(after, await settledRss());
        await new Promise((r) => setTimeout(r, 250));
      }
      const grown = after - before;
      if (process.env.SOAK_DEBUG) console.log(process.memoryUsage(), grown / MB);
      expect(grown).toBeLessThan(50 * MB);
      peer.requests.length = 0;
    } finally {
      await peer.stop();
    }
  });
});
