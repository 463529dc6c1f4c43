import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticle, makeSource, makeTopic } from '../helpers/article-factories.js';
import { makeToken } from '../mcp/mcp-helpers.js';
import { decimalItemId, itemHex, longItemId, parseItemId } from '../../src/domain/greader.js';
import { articles } from '../../src/infrastructure/db/schema/index.js';

/**
 * The Google Reader API request by request, in the formats FreshRSS's and Miniflux's published API
 * descriptions give (FreshRSS: p/api/greader.php and its docs "Google Reader compatible API";
 * Miniflux: docs "Google Reader API" and internal/googlereader): ClientLogin's plain-text answer,
 * `GoogleLogin auth=`, stream ids, long and decimal item ids, continuation, xt=read, edit-tag "OK".
 */
describe('Google Reader API', () => {
  let t: TestApp;
  let reader: { id: string; headers: Record<string, string> };
  let email: string;
  let write: string;
  let read: string;
  let topicName: string;
  let feedUrl: string;
  const gl = (token: string) => ({ authorization: `GoogleLogin auth=${token}` });
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  beforeAll(async () => {
    t = await buildTestApp();
    email = `phone-${Date.now()}@example.test`;
    reader = await t.login('user', email);
    write = (await makeToken(t, reader, 'write')).token;
    read = (await makeToken(t, reader, 'read')).token;
    const db = t.container.database.db;
    const topic = await makeTopic(db, { name: `Quantum ${Date.now()}` });
    topicName = topic.name;
    const source = await makeSource(db, { topicId: topic.id, name: 'Quantum Wire' });
    feedUrl = source.url;
    const base = Date.parse('2026-01-01T00:00:00Z');
    // 2,500 articles, one a minute: the continuation must walk all of them, none twice
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      topicId: topic.id,
      source: 'Quantum Wire',
      sourceId: source.id,
      title: `Qubit ${i}`,
      url: `https://quantum.example.test/a/${i}`,
      canonicalUrl: `https://quantum.example.test/a/${i}`,
      normalizedTitle: `qubit ${i}`,
      summary: `Summary ${i}`,
      scrapedAt: new Date(base + i * 60_000),
      publishedAt: new Date(base + i * 60_000),
      translations: (i === 2499 ? { 'zh-TW': { title: '量子位元', summary: '中文摘要' } } : {}) as Record<
        string,
        { title: string; summary: string | null }
      >,
    }));
    for (let i = 0; i < rows.length; i += 500) await db.insert(articles).values(rows.slice(i, i + 500));
  }, 120_000);
  afterAll(() => t.close());

  it('ClientLogin answers SID/LSID/Auth in plain text for the e-mail and a token; BadAuthentication otherwise', async () => {
    const ok = await t.app.inject({
      method: 'POST',
      url: '/accounts/ClientLogin',
      headers: form,
      payload: new URLSearchParams({ Email: email, Passwd: write, service: 'reader' }).toString(),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
    expect(ok.body).toBe(`SID=${write}\nLSID=${write}\nAuth=${write}\n`);
    for (const payload of [
      { Email: email, Passwd: 'password-123' },
      { Email: 'someone-else@example.test', Passwd: write },
      { Email: email, Passwd: 'ais_pat_0000000000_0000000000000000000000000000000000000000' },
      { Email: email },
    ]) {
      const bad = await t.app.inject({
        method: 'POST',
        url: '/accounts/ClientLogin',
        headers: form,
        payload: new URLSearchParams(payload as Record<string, string>).toString(),
      });
      expect(bad.statusCode).toBe(401);
      expect(bad.body).toBe('Error=BadAuthentication\n');
    }
  });

  it('item ids round-trip in the long, decimal and short hex forms', () => {
    const uuid = 'f3a1b2c4-d5e6-4f70-8a9b-0c1d2e3f4a5b';
    const hex = itemHex(uuid);
    expect(hex).toBe('f3a1b2c4d5e64f70');
    expect(longItemId(uuid)).toBe('tag:google.com,2005:reader/item/f3a1b2c4d5e64f70');
    // the top bit set: Google Reader's signed decimal
    expect(decimalItemId(uuid)).toBe(BigInt.asIntN(64, 0xf3a1b2c4d5e64f70n).toString());
    expect(decimalItemId(uuid).startsWith('-')).toBe(true);
    expect(parseItemId(longItemId(uuid))).toBe(hex);
    expect(parseItemId(decimalItemId(uuid))).toBe(hex);
    expect(parseItemId(BigInt('0x' + hex).toString())).toBe(hex); // unsigned decimal too
    expect(parseItemId(hex)).toBe(hex);
    expect(parseItemId('1')).toBe('0000000000000001');
    expect(parseItemId('tag:google.com,2005:reader/item/xyz')).toBeNull();
    expect(parseItemId('18446744073709551616')).toBeNull(); // 2^64
  });

  it('user-info, tag/list, subscription/list and unread-count in the Reader shapes', async () => {
    const info = await t.app.inject({ url: '/reader/api/0/user-info?output=json', headers: gl(read) });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ userId: reader.id, userEmail: email });
    const tags = (
      await t.app.inject({ url: '/reader/api/0/tag/list?output=json', headers: gl(read) })
    ).json();
    expect(tags.tags).toContainEqual({ id: 'user/-/state/com.google/starred' });
    expect(tags.tags).toContainEqual({ id: `user/-/label/${topicName}`, type: 'folder' });
    expect(tags.tags).toContainEqual({ id: 'user/-/label/★ Top · 精選', type: 'folder' });
    const subs = (
      await t.app.inject({ url: '/reader/api/0/subscription/list?output=json', headers: gl(read) })
    ).json();
    expect(subs.subscriptions).toContainEqual(
      expect.objectContaining({
        id: `feed/${feedUrl}`,
        title: 'Quantum Wire',
        url: feedUrl,
        categories: [{ id: `user/-/label/${topicName}`, label: topicName }],
      }),
    );
    const counts = (
      await t.app.inject({ url: '/reader/api/0/unread-count?output=json', headers: gl(read) })
    ).json();
    expect(counts.unreadcounts).toContainEqual(
      expect.objectContaining({ id: `user/-/label/${topicName}`, count: 2500 }),
    );
    expect(counts.unreadcounts).toContainEqual(
      expect.objectContaining({ id: 'user/-/state/com.google/reading-list', count: 2500 }),
    );
  });

  it('stream/items/ids walks 2,500 items by continuation, none twice, and xt=read leaves out the read ones', async () => {
    const seen: string[] = [];
    let c: string | undefined;
    let calls = 0;
    do {
      const q = new URLSearchParams({
        s: `user/-/label/${topicName}`,
        n: '1000',
        output: 'json',
        ...(c ? { c } : {}),
      });
      const res = await t.app.inject({ url: `/reader/api/0/stream/items/ids?${q}`, headers: gl(read) });
      expect(res.statusCode).toBe(200);
      const body = res.json<{ itemRefs: { id: string; timestampUsec: string }[]; continuation?: string }>();
      seen.push(...body.itemRefs.map((r) => r.id));
      c = body.continuation;
      calls++;
    } while (c && calls < 10);
    expect(calls).toBe(3);
    expect(seen).toHaveLength(2500);
    expect(new Set(seen).size).toBe(2500);

    // mark the newest 10 read through edit-tag with decimal ids; xt=read leaves them out
    const newest = seen.slice(0, 10);
    const edit = await t.app.inject({
      method: 'POST',
      url: '/reader/api/0/edit-tag',
      headers: { ...gl(write), ...form },
      payload: `${newest.map((i) => `i=${i}`).join('&')}&a=user/-/state/com.google/read&T=x`,
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.body).toBe('OK');
    const unread: string[] = [];
    c = undefined;
    do {
      const q: URLSearchParams = new URLSearchParams({
        s: 'user/-/state/com.google/reading-list',
        xt: 'user/-/state/com.google/read',
        n: '700',
        ...(c ? { c } : {}),
      });
      const body = (
        await t.app.inject({ url: `/reader/api/0/stream/items/ids?${q}`, headers: gl(read) })
      ).json<{ itemRefs: { id: string }[]; continuation?: string }>();
      unread.push(...body.itemRefs.map((r: { id: string }) => r.id));
      c = body.continuation;
    } while (c);
    expect(unread).toHaveLength(2490);
    expect(unread.some((i) => newest.includes(i))).toBe(false);
    // the same read state as the web app's list
    const list = await t.app.inject({ url: '/articles?unread_only=true&limit=1', headers: reader.headers });
    expect(list.json().total).toBe(2490);
  });

  it('stream/contents: items with long ids, canonical URL, origin, published date, categories and the summary block', async () => {
    const res = await t.app.inject({
      url: `/reader/api/0/stream/contents/${encodeURIComponent(`feed/${feedUrl}`)}?n=2&output=json`,
      headers: gl(read),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items).toHaveLength(2);
    expect(typeof body.continuation).toBe('string');
    const [first] = body.items;
    expect(first.id).toMatch(/^tag:google\.com,2005:reader\/item\/[0-9a-f]{16}$/);
    expect(first.title).toBe('Qubit 2499');
    expect(first.canonical).toEqual([{ href: 'https://quantum.example.test/a/2499' }]);
    expect(first.origin).toEqual({ streamId: `feed/${feedUrl}`, title: 'Quantum Wire', htmlUrl: feedUrl });
    expect(first.published).toBe(Math.floor((Date.parse('2026-01-01T00:00:00Z') + 2499 * 60_000) / 1000));
    expect(first.categories).toContain(`user/-/label/${topicName}`);
    expect(first.categories).toContain('user/-/state/com.google/read');
    expect(first.summary.content).toContain('<div class="ais-summary" data-ais="summary">');
    expect(first.summary.content).toContain('Summary 2499');
    expect(first.summary.content).toContain('中文摘要');

    // the per-user setting turns the block off
    const off = await t.app.inject({
      method: 'PUT',
      url: '/user/notification-settings',
      headers: reader.headers,
      payload: {
        email_enabled: false,
        messenger_chat_id: null,
        messenger_enabled: false,
        locale: 'en',
        reader_summary_block: false,
      },
    });
    expect(off.json().reader_summary_block).toBe(false);
    const again = (
      await t.app.inject({ url: `/reader/api/0/stream/items/contents?i=${first.id}`, headers: gl(read) })
    ).json();
    expect(again.items[0].summary.content).not.toContain('ais-summary');
    await t.app.inject({
      method: 'PUT',
      url: '/user/notification-settings',
      headers: reader.headers,
      payload: {
        email_enabled: false,
        messenger_chat_id: null,
        messenger_enabled: false,
        locale: 'en',
        reader_summary_block: true,
      },
    });
  });

  it('starred is the favorites; the Atom stream carries read/fresh labels; bad input is a clean 400', async () => {
    const article = await makeArticle(t.container.database.db, { title: 'Star me' });
    const star = await t.app.inject({
      method: 'POST',
      url: '/reader/api/0/edit-tag',
      headers: { ...gl(write), ...form },
      payload: `i=${encodeURIComponent(longItemId(article.id))}&a=user/-/state/com.google/starred`,
    });
    expect(star.body).toBe('OK');
    const favs = (await t.app.inject({ url: '/user/favorites', headers: reader.headers })).json();
    expect(favs.article_ids).toContain(article.id);
    const starred = (
      await t.app.inject({
        url: '/reader/api/0/stream/contents/user/-/state/com.google/starred',
        headers: gl(read),
      })
    ).json();
    expect(starred.items.map((i: { title: string }) => i.title)).toEqual(['Star me']);

    const atom = await t.app.inject({
      url: `/reader/atom/${encodeURIComponent(`feed/${feedUrl}`)}?n=3`,
      headers: gl(read),
    });
    expect(atom.statusCode).toBe(200);
    expect(atom.headers['content-type']).toMatch(/^application\/atom\+xml/);
    expect(atom.body).toContain('label="read"');
    expect(atom.body).toContain('<id>tag:google.com,2005:reader/item/');

    for (const url of [
      '/reader/api/0/stream/contents/user/-/state/com.google/reading-list?n=0',
      '/reader/api/0/stream/contents/user/-/state/com.google/reading-list?n=abc',
      '/reader/api/0/stream/contents/user/-/state/com.google/reading-list?c=not-ours',
      '/reader/api/0/stream/contents/user/-/state/com.google/reading-list?xt=user/-/label/x',
      '/reader/api/0/stream/contents/nonsense',
      '/reader/api/0/stream/items/contents?i=not-an-id',
      '/reader/api/0/stream/items/ids',
    ]) {
      const res = await t.app.inject({ url, headers: gl(read) });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code).toBe('bad_request');
    }
  });

  it('mark-all-as-read marks a label read up to ts', async () => {
    const topic = await makeTopic(t.container.database.db, { name: `Marked ${Date.now()}` });
    await makeArticle(t.container.database.db, {
      topicId: topic.id,
      publishedAt: new Date('2026-02-01T00:00:00Z'),
    });
    await makeArticle(t.container.database.db, {
      topicId: topic.id,
      publishedAt: new Date('2026-03-01T00:00:00Z'),
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/reader/api/0/mark-all-as-read',
      headers: { ...gl(write), ...form },
      payload: new URLSearchParams({
        s: `user/-/label/${topic.name}`,
        ts: String(Date.parse('2026-02-15T00:00:00Z') * 1000),
      }).toString(),
    });
    expect(res.body).toBe('OK');
    const left = (
      await t.app.inject({ url: `/articles?topic_id=${topic.id}&unread_only=true`, headers: reader.headers })
    ).json();
    expect(left.total).toBe(1);
  });
});
