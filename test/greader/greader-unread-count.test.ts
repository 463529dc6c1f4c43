import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticles, makeSource, makeTopic } from '../helpers/article-factories.js';
import { makeToken } from '../mcp/mcp-helpers.js';
import { eq } from 'drizzle-orm';
import { longItemId } from '../../src/domain/greader.js';
import { sources } from '../../src/infrastructure/db/schema/index.js';

interface Count {
  id: string;
  count: number;
  newestItemTimestampUsec: string;
}

/**
 * unread-count per subscription (`feed/<url>`), beside the labels and the reading list, as FreshRSS
 * and Miniflux answer it: each enabled source with unread articles, its count the articles its feed
 * stream lists unread, and the crawl time of its newest article. Read state is the caller's own.
 */
describe.each(dbKinds())('Google Reader API: unread counts per subscription (%s)', (db) => {
  let t: TestApp;
  let alice: Record<string, string>;
  let bob: Record<string, string>;
  let label: string;
  const feeds = { wire: '', digest: '', quiet: '', off: '' };
  /** the sources' ids, by name */
  const ids: Record<string, string> = {};
  let wireItems: string[];
  const base = Date.parse('2026-03-01T00:00:00Z');
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const gl = (token: string) => ({ authorization: `GoogleLogin auth=${token}` });

  beforeAll(async () => {
    t = await buildTestApp({ db });
    const d = t.container.database.db;
    const a = await t.login('user');
    const b = await t.login('user');
    alice = gl((await makeToken(t, a, 'write')).token);
    bob = gl((await makeToken(t, b, 'read')).token);
    const topic = await makeTopic(d, { name: `Optics ${db}` });
    label = topic.name;
    const source = async (name: string, enabled = true) => {
      const s = await makeSource(d, {
        topicId: topic.id,
        name,
        enabled,
        url: `https://${name}.example.test/feed`,
      });
      ids[name] = s.id;
      return s.url;
    };
    feeds.wire = await source('wire');
    feeds.digest = await source('digest');
    feeds.quiet = await source('quiet'); // no articles: no entry
    feeds.off = await source('off', false); // unsubscribed: no entry though it has articles
    // everything exists before the first count (the totals are read at most every 15 s)
    wireItems = (
      await makeArticles(d, 7, (i) => ({
        topicId: topic.id,
        source: 'wire',
        sourceId: ids.wire,
        scrapedAt: new Date(base + i * 60_000),
      }))
    ).map((r) => longItemId(r.id));
    await makeArticles(d, 3, (i) => ({
      topicId: topic.id,
      source: 'digest',
      sourceId: ids.digest,
      scrapedAt: new Date(base + 3_600_000 + i * 1000),
    }));
    await makeArticles(d, 2, () => ({ topicId: topic.id, source: 'off', sourceId: ids.off }));
  });
  afterAll(() => t.close());

  const counts = async (headers: Record<string, string>) => {
    const res = await t.app.inject({ url: '/reader/api/0/unread-count?output=json', headers });
    expect(res.statusCode).toBe(200);
    return new Map(res.json<{ unreadcounts: Count[] }>().unreadcounts.map((c) => [c.id, c]));
  };
  const usec = (ms: number) => (BigInt(ms) * 1000n).toString();

  it('gives each subscription with unread articles its count and newest crawl time', async () => {
    const c = await counts(alice);
    expect(c.get(`feed/${feeds.wire}`)).toEqual({
      id: `feed/${feeds.wire}`,
      count: 7,
      newestItemTimestampUsec: usec(base + 6 * 60_000),
    });
    expect(c.get(`feed/${feeds.digest}`)).toEqual({
      id: `feed/${feeds.digest}`,
      count: 3,
      newestItemTimestampUsec: usec(base + 3_600_000 + 2000),
    });
    expect(c.has(`feed/${feeds.quiet}`)).toBe(false);
    expect(c.has(`feed/${feeds.off}`)).toBe(false);
    // the label counts every article of the topic, the disabled source's too (its stream lists them)
    expect(c.get(`user/-/label/${label}`)?.count).toBe(12);
  });

  it('follows the caller’s read state: edit-tag lowers the feed’s count, mark-all-as-read of a feed ends it', async () => {
    const read = await t.app.inject({
      method: 'POST',
      url: '/reader/api/0/edit-tag',
      headers: { ...alice, ...form },
      payload: new URLSearchParams([
        ...wireItems.slice(0, 5).map((i) => ['i', i]),
        ['a', 'user/-/state/com.google/read'],
      ]).toString(),
    });
    expect(read.statusCode).toBe(200);
    let c = await counts(alice);
    expect(c.get(`feed/${feeds.wire}`)?.count).toBe(2);
    expect(c.get(`feed/${feeds.digest}`)?.count).toBe(3);
    expect(c.get(`user/-/label/${label}`)?.count).toBe(7);
    // the feed stream agrees with its count
    const ids = await t.app.inject({
      url: `/reader/api/0/stream/items/ids?${new URLSearchParams({
        s: `feed/${feeds.wire}`,
        xt: 'user/-/state/com.google/read',
        n: '100',
      })}`,
      headers: alice,
    });
    expect(ids.json<{ itemRefs: unknown[] }>().itemRefs).toHaveLength(2);

    const all = await t.app.inject({
      method: 'POST',
      url: '/reader/api/0/mark-all-as-read',
      headers: { ...alice, ...form },
      payload: new URLSearchParams({ s: `feed/${feeds.digest}` }).toString(),
    });
    expect(all.statusCode).toBe(200);
    c = await counts(alice);
    expect(c.has(`feed/${feeds.digest}`)).toBe(false);
    expect(c.get(`feed/${feeds.wire}`)?.count).toBe(2);

    // another reader's counts are their own
    const other = await counts(bob);
    expect(other.get(`feed/${feeds.wire}`)?.count).toBe(7);
    expect(other.get(`feed/${feeds.digest}`)?.count).toBe(3);
  });

  it('a renamed subscription keeps its articles: its stream and its count follow the source, not its name', async () => {
    await t.container.database.db
      .update(sources)
      .set({ name: 'wire (renamed)' })
      .where(eq(sources.id, ids.wire!));
    const c = await counts(alice);
    expect(c.get(`feed/${feeds.wire}`)?.count).toBe(2);
    const unread = await t.app.inject({
      url: `/reader/api/0/stream/items/ids?${new URLSearchParams({
        s: `feed/${feeds.wire}`,
        xt: 'user/-/state/com.google/read',
        n: '100',
      })}`,
      headers: alice,
    });
    expect(unread.json<{ itemRefs: unknown[] }>().itemRefs).toHaveLength(2);
    const all = await t.app.inject({
      url: `/reader/api/0/stream/items/ids?${new URLSearchParams({ s: `feed/${feeds.wire}`, n: '100' })}`,
      headers: alice,
    });
    expect(all.json<{ itemRefs: unknown[] }>().itemRefs).toHaveLength(7);
  });
});
