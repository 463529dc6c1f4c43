import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticle } from '../helpers/article-factories.js';
import { TcpProxy } from '../peers/tcp-proxy.js';
import { RedisCache } from '../../src/infrastructure/cache/redis-cache.js';
import { articleViewCounts } from '../../src/infrastructure/db/schema/index.js';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Redis goes away under a running API and comes back. Views keep answering 204, are counted in
 * process while Redis is gone, and the flushes after its return store every view exactly once.
 */
describe.runIf(redisUrl)('Redis unavailable', { timeout: 60_000 }, () => {
  let proxy: TcpProxy;
  let cache: RedisCache;
  let t: TestApp;

  beforeAll(async () => {
    const target = new URL(redisUrl!);
    proxy = await new TcpProxy(target.hostname, Number(target.port || 6379)).start();
    cache = new RedisCache(`redis://127.0.0.1:${proxy.port}`, {
      keyPrefix: `t:${randomBytes(4).toString('hex')}:`,
    });
    t = await buildTestApp({ cacheInstance: cache });
  });
  afterAll(async () => {
    await t?.close();
    await cache?.close();
    await proxy?.stop();
  });

  it('neither loses nor double-counts views across an outage', async () => {
    const db = t.container.database.db;
    const a = await makeArticle(db);
    const view = (ip: string) =>
      t.app.inject({
        method: 'POST',
        url: `/articles/${a.id}/view`,
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': ip },
      });
    const flush = async () => {
      const admin = await t.login('admin');
      return t.app.inject({
        method: 'POST',
        url: '/admin/articles/flush-view-counts',
        headers: admin.headers,
      });
    };
    const stored = async () =>
      (
        await db
          .select({ v: articleViewCounts.viewCount })
          .from(articleViewCounts)
          .where(eq(articleViewCounts.articleId, a.id))
      )[0]?.v ?? 0;

    for (const ip of ['10.0.0.1', '10.0.0.2']) expect((await view(ip)).statusCode).toBe(204);

    proxy.cut();
    // during the outage: still 204, counted in process, a repeat from the same address is not
    for (const ip of ['10.0.0.3', '10.0.0.4', '10.0.0.3']) expect((await view(ip)).statusCode).toBe(204);
    // a flush while Redis is down writes what it holds in process, and fails for the rest
    await flush();

    proxy.restore();
    // after the outage: a repeat of a view counted during it is still recognised
    for (const ip of ['10.0.0.4', '10.0.0.5']) expect((await view(ip)).statusCode).toBe(204);
    // once the cache answers again (after the 5 s pause), a view hands the in-process ones over
    await new Promise((r) => setTimeout(r, 5200));
    expect((await view('10.0.0.6')).statusCode).toBe(204);
    await expect.poll(async () => Number(await cache.get(`view:${a.id}`))).toBeGreaterThanOrEqual(2);
    let ok = false;
    for (let i = 0; i < 20 && !ok; i++) {
      ok = (await flush()).statusCode === 200;
      if (!ok) await new Promise((r) => setTimeout(r, 250));
    }
    expect(ok).toBe(true);
    // .1, .2 (before), .3, .4 (during), .5, .6 (after): six distinct addresses, six views
    expect(await stored()).toBe(6);
    await flush();
    expect(await stored()).toBe(6);
  });
});
