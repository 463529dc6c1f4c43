import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, switchMetric, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeSource, makeTopic, setMetric } from '../helpers/article-factories.js';
import { makeToken } from '../mcp/mcp-helpers.js';
import { articles, articleViewCounts } from '../../src/infrastructure/db/schema/index.js';
import { TOP_LABEL } from '../../src/domain/greader.js';
import { TOP_MAX } from '../../src/application/greader/greader.service.js';

/**
 * The stream parameters of stream/contents and stream/items/ids, as FreshRSS (p/api/greader.php,
 * `parse` and `streamContentsFilters`) and Miniflux (internal/googlereader/request_modifier.go,
 * parameters.go) read them: `ot` = only items from this time on (seconds), `nt` = only items
 * before this time, `r=o` = oldest first (default newest first), `it` = only items with this state
 * (starred), `xt` = leave out items with this state (read); `c` continues in the same order and
 * bounds. Then the ★ Top label: what it ranks by and what it is limited to.
 */
describe.each(dbKinds())('Google Reader stream parameters on %s', (kind) => {
  let t: TestApp;
  let write: string;
  let read: string;
  let label: string;
  const titles: string[] = [];
  const day = 86_400_000;
  const base = Math.floor((Date.now() - 10 * day) / 1000) * 1000;
  const sec = (i: number) => (base + i * day) / 1000;
  const gl = (token: string) => ({ authorization: `GoogleLogin auth=${token}` });
  const ids: Record<string, string> = {};
  const longOf = (uuid: string) => `tag:google.com,2005:reader/item/${uuid.replace(/-/g, '').slice(0, 16)}`;
  const decimalOf = (uuid: string) =>
    BigInt.asIntN(64, BigInt(`0x${uuid.replace(/-/g, '').slice(0, 16)}`)).toString();

  /** every title of a stream/contents walk (following `c`), and the number of pages */
  async function contents(stream: string, params: Record<string, string | string[]> = {}) {
    const out: string[] = [];
    let c: string | undefined;
    let pages = 0;
    do {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) for (const x of [v].flat()) q.append(k, x);
      if (c) q.set('c', c);
      const res = await t.app.inject({
        url: `/reader/api/0/stream/contents/${encodeURIComponent(stream)}?${q}`,
        headers: gl(read),
      });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      out.push(...body.items.map((i: { title: string }) => i.title));
      c = body.continuation;
      pages++;
      expect(pages).toBeLessThan(50);
    } while (c);
    return { titles: out, pages };
  }

  /** every item id of a stream/items/ids walk, as titles (through ids), and the number of pages */
  async function itemIds(stream: string, params: Record<string, string | string[]> = {}) {
    const byDecimal = new Map(Object.entries(ids).map(([title, id]) => [decimalOf(id), title]));
    const out: string[] = [];
    let c: string | undefined;
    let pages = 0;
    do {
      const q = new URLSearchParams({ s: stream });
      for (const [k, v] of Object.entries(params)) for (const x of [v].flat()) q.append(k, x);
      if (c) q.set('c', c);
      const res = await t.app.inject({ url: `/reader/api/0/stream/items/ids?${q}`, headers: gl(read) });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      out.push(...body.itemRefs.map((r: { id: string }) => byDecimal.get(r.id) ?? `?${r.id}`));
      c = body.continuation;
      pages++;
      expect(pages).toBeLessThan(200);
    } while (c);
    return { titles: out, pages };
  }

  /** the same walk on both endpoints gives the same items in the same order */
  async function both(stream: string, params: Record<string, string | string[]> = {}) {
    const a = await contents(stream, params);
    const b = await itemIds(stream, params);
    expect(b.titles).toEqual(a.titles);
    return a.titles;
  }

  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    const reader = await t.login('user', `params-${Date.now()}@example.test`);
    write = (await makeToken(t, reader, 'write')).token;
    read = (await makeToken(t, reader, 'read')).token;
    const db = t.container.database.db;
    const topic = await makeTopic(db, { name: `Params ${Date.now()}` });
    label = `user/-/label/${topic.name}`;
    const source = await makeSource(db, { topicId: topic.id, name: 'Param Wire' });
    // p0 … p5, one a day; crawled a minute after publication
    for (let i = 0; i < 6; i++) {
      const title = `p${i}`;
      titles.push(title);
      const a = await makeArticle(db, {
        topicId: topic.id,
        sourceId: source.id,
        source: 'Param Wire',
        title,
        publishedAt: new Date(base + i * day),
        scrapedAt: new Date(base + i * day + 60_000),
      });
      ids[title] = a.id;
    }
    // another topic: one recent article (in ★ Top, which spans topics) and one of 40 days ago (not)
    const other = await makeTopic(db, { name: `Other ${Date.now()}` });
    for (const [title, ago] of [
      ['q-recent', 2],
      ['q-old', 40],
    ] as const) {
      const at = new Date(Date.now() - ago * day);
      ids[title] = (await makeArticle(db, { topicId: other.id, title, publishedAt: at, scrapedAt: at })).id;
    }
    // citations: p3 50, q-old 1000 (too old), p0 40, q-recent 30, p1 10; views rank the other way
    for (const [title, c] of [
      ['p3', 50],
      ['q-old', 1000],
      ['p0', 40],
      ['q-recent', 30],
      ['p1', 10],
    ] as const)
      await setMetric(db, ids[title]!, 'citation_count', c);
    for (const [title, v] of [
      ['p1', 900],
      ['q-old', 5000],
      ['p5', 800],
      ['p3', 1],
    ] as const)
      await db.insert(articleViewCounts).values({ articleId: ids[title]!, viewCount: v });
    // p1 and p4 starred, p2 read
    for (const [i, a] of [
      [ids.p1!, 'user/-/state/com.google/starred'],
      [ids.p4!, 'user/-/state/com.google/starred'],
      [ids.p2!, 'user/-/state/com.google/read'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/reader/api/0/edit-tag',
        headers: { ...gl(write), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ i: longOf(i!), a: a! }).toString(),
      });
      expect(res.body).toBe('OK');
    }
  }, 120_000);
  afterAll(() => t?.close());

  it('newest first by default, r=o oldest first, on both endpoints and across pages', async () => {
    expect(await both(label)).toEqual(['p5', 'p4', 'p3', 'p2', 'p1', 'p0']);
    expect(await both(label, { r: 'o' })).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5']);
    const paged = await contents(label, { r: 'o', n: '2' });
    expect(paged).toEqual({ titles: ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'], pages: 3 });
    const pagedIds = await itemIds(label, { r: 'o', n: '4' });
    expect(pagedIds).toEqual({ titles: ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'], pages: 2 });
    expect((await itemIds(label, { n: '1' })).titles).toEqual(['p5', 'p4', 'p3', 'p2', 'p1', 'p0']);
  });

  it('ot: from that second on; nt: before it; both: the window, paged in either order', async () => {
    expect(await both(label, { ot: String(sec(3)) })).toEqual(['p5', 'p4', 'p3']);
    expect(await both(label, { ot: String(sec(3) + 1) })).toEqual(['p5', 'p4']);
    expect(await both(label, { nt: String(sec(2)) })).toEqual(['p1', 'p0']);
    expect(await both(label, { ot: String(sec(1)), nt: String(sec(4)) })).toEqual(['p3', 'p2', 'p1']);
    expect(await both(label, { ot: String(sec(1)), nt: String(sec(4)), r: 'o', n: '1' })).toEqual([
      'p1',
      'p2',
      'p3',
    ]);
    // the reading list and a feed take them too
    expect(await both('user/-/state/com.google/reading-list', { ot: String(sec(4)) })).toEqual([
      'q-recent',
      'p5',
      'p4',
    ]);
    expect(await both('user/-/state/com.google/reading-list', { nt: String(sec(1)) })).toEqual([
      'p0',
      'q-old',
    ]);
    expect(await both('user/-/state/com.google/reading-list', { ot: String(sec(7)) })).toEqual(['q-recent']);
    // a window with nothing in it is an empty stream, not an error
    expect(await both(label, { ot: String(sec(4)), nt: String(sec(3)) })).toEqual([]);
  });

  it('it=starred keeps the starred ones, xt=read leaves out the read ones, with ot/nt and r=o', async () => {
    expect(await both(label, { it: 'user/-/state/com.google/starred' })).toEqual(['p4', 'p1']);
    expect(await both(label, { it: 'user/-/state/com.google/starred', r: 'o', n: '1' })).toEqual([
      'p1',
      'p4',
    ]);
    expect(await both(label, { it: 'user/-/state/com.google/starred', ot: String(sec(2)) })).toEqual(['p4']);
    expect(await both(label, { xt: 'user/-/state/com.google/read' })).toEqual(['p5', 'p4', 'p3', 'p1', 'p0']);
    expect(
      await both(label, {
        xt: 'user/-/state/com.google/read',
        it: 'user/-/state/com.google/starred',
        nt: String(sec(4) + 1),
      }),
    ).toEqual(['p4', 'p1']);
    // on the starred stream, `it` changes nothing
    expect(await both('user/-/state/com.google/starred', { it: 'user/-/state/com.google/starred' })).toEqual([
      'p4',
      'p1',
    ]);
    // other states are refused, not ignored (docs/decisions/0112)
    const res = await t.app.inject({
      url: `/reader/api/0/stream/items/ids?s=${encodeURIComponent(label)}&it=user/-/label/x`,
      headers: gl(read),
    });
    expect(res.statusCode).toBe(400);
  });

  const top = `user/-/label/${TOP_LABEL}`;

  it('★ Top: the last 30 days of every topic by citations (then the uncited), with it/xt/ot/nt', async () => {
    const ranked = await both(top);
    // cited first, most cited first; q-old (1000 citations, 40 days old) is not there
    expect(ranked.slice(0, 4)).toEqual(['p3', 'p0', 'q-recent', 'p1']);
    expect(ranked).not.toContain('q-old');
    expect([...ranked].sort()).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'q-recent']);
    // r=o does not turn a ranking round
    expect((await both(top, { r: 'o' })).slice(0, 4)).toEqual(['p3', 'p0', 'q-recent', 'p1']);
    // paged by n, the same ranking
    expect((await contents(top, { n: '3' })).titles).toEqual(ranked);
    expect(await both(top, { it: 'user/-/state/com.google/starred' })).toEqual(['p1', 'p4']);
    expect((await both(top, { xt: 'user/-/state/com.google/read' })).includes('p2')).toBe(false);
    expect((await both(top, { ot: String(sec(3)) })).slice(0, 2)).toEqual(['p3', 'q-recent']);
    expect((await both(top, { nt: String(sec(1)) })).slice(0, 1)).toEqual(['p0']);
    expect(await both(top, { nt: String(sec(1)) })).toEqual(['p0']);
    // nt bounds the ranking itself: one full page, not empty pages that go on
    expect(await contents(top, { nt: String(sec(1)), n: '1' })).toEqual({ titles: ['p0'], pages: 1 });
    expect(await contents(top, { nt: String(sec(2)), n: '1' })).toEqual({ titles: ['p0', 'p1'], pages: 2 });
  });

  it('★ Top: its items, and only they, carry its label among their categories, in every stream', async () => {
    const categoriesOf = async (stream: string) => {
      const res = await t.app.inject({
        url: `/reader/api/0/stream/contents/${encodeURIComponent(stream)}?n=50`,
        headers: gl(read),
      });
      return new Map<string, string[]>(
        res.json().items.map((i: { title: string; categories: string[] }) => [i.title, i.categories]),
      );
    };
    const topLabel = `user/-/label/${TOP_LABEL}`;
    const inTop = await categoriesOf(top);
    expect(inTop.size).toBe(7);
    for (const [title, cats] of inTop) expect(cats, title).toContain(topLabel);
    const all = await categoriesOf('user/-/state/com.google/reading-list');
    expect(all.get('p3')).toContain(topLabel);
    expect(all.get('p3')).toContain(label);
    expect(all.get('q-old')).not.toContain(topLabel);
    expect(
      [...all]
        .filter(([, cats]) => cats.includes(topLabel))
        .map(([x]) => x)
        .sort(),
    ).toEqual([...inTop.keys()].sort());
    // stream/items/contents, as apps fetch what stream/items/ids listed
    const one = await t.app.inject({
      method: 'POST',
      url: '/reader/api/0/stream/items/contents',
      headers: { ...gl(read), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams([
        ['i', longOf(ids.p0!)],
        ['i', longOf(ids['q-old']!)],
      ]).toString(),
    });
    const got = new Map<string, string[]>(
      one.json().items.map((i: { title: string; categories: string[] }) => [i.title, i.categories]),
    );
    expect(got.get('p0')).toContain(topLabel);
    expect(got.get('q-old')).not.toContain(topLabel);
  });

  it('★ Top ranks by views when citation_count is switched off', async () => {
    await switchMetric(t, 'citation_count', false);
    try {
      const ranked = await both(top);
      expect(ranked.slice(0, 3)).toEqual(['p1', 'p5', 'p3']);
      expect(ranked).not.toContain('q-old');
    } finally {
      await switchMetric(t, 'citation_count', true);
    }
  });

  it(`★ Top holds at most ${TOP_MAX} articles, however many are recent`, async () => {
    const db = t.container.database.db;
    const topic = await makeTopic(db, { name: `Crowd ${Date.now()}` });
    const at = new Date(Date.now() - day);
    await db.insert(articles).values(
      Array.from({ length: TOP_MAX + 5 }, (_, i) => ({
        topicId: topic.id,
        source: 'Crowd',
        title: `crowd ${i}`,
        url: `https://crowd.example.test/${i}`,
        canonicalUrl: `https://crowd.example.test/${i}`,
        normalizedTitle: `crowd ${i}`,
        publishedAt: at,
        scrapedAt: at,
      })),
    );
    const walked = await contents(top, { n: '40' });
    expect(walked.titles).toHaveLength(TOP_MAX);
    expect(walked.pages).toBe(3);
    expect(new Set(walked.titles).size).toBe(TOP_MAX);
    // the cited ones still lead
    expect(walked.titles.slice(0, 4)).toEqual(['p3', 'p0', 'q-recent', 'p1']);
    const refs = await t.app.inject({
      url: `/reader/api/0/stream/items/ids?s=${encodeURIComponent(top)}&n=1000`,
      headers: gl(read),
    });
    expect(refs.json().itemRefs).toHaveLength(TOP_MAX);
    expect(refs.json().continuation).toBeUndefined();
  });
});
