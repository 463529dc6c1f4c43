import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { GoogleReaderApi } from 'google-reader-api';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { webRoleInFront } from '../helpers/web-role.js';
import { makeArticle, makeSource, makeTopic } from '../helpers/article-factories.js';
import { makeToken } from '../mcp/mcp-helpers.js';
import { longItemId } from '../../src/domain/greader.js';

const READ = 'user/-/state/com.google/read';
const STARRED = 'user/-/state/com.google/starred';

/**
 * The npm package google-reader-api (a Google Reader API client written against FreshRSS's
 * greader.php; test/greader/SOURCES.md) as a second real client beside newsboat: pointed at the api
 * role and at the web role's public address, both on loopback, with the e-mail and a personal access
 * token. Every call here is one of the library's own methods. Two of them are not used:
 * getUserInfo and getStreamItemIds run JSON.parse on an answer the library has already parsed when
 * it is `application/json` (FreshRSS sends those two with PHP's default type; Miniflux and we send
 * JSON), so they fail against Miniflux as against us.
 */
describe('the google-reader-api library syncs through the Google Reader API', () => {
  let t: TestApp;
  let web: FastifyInstance;
  let roles: { role: string; api: GoogleReaderApi }[];
  let session: { headers: Record<string, string> };
  const ids: Record<string, string> = {};
  const topics: { label: string; source: string; feedUrl: string; titles: string[] }[] = [];
  const chinese: Record<string, string> = {};

  beforeAll(async () => {
    t = await buildTestApp();
    const urls = await webRoleInFront(t);
    web = urls.web;
    const email = `library-${Date.now()}@example.test`;
    session = await t.login('user', email);
    const token = (await makeToken(t, session, 'write')).token;
    const db = t.container.database.db;
    for (const [topicName, sourceName, zh] of [
      ['Quantum', 'Qubit Weekly', '量子'],
      ['Climate', 'Ice Report', '冰層'],
    ] as const) {
      const topic = await makeTopic(db, { name: `${topicName} ${Date.now()}` });
      // stored as the pipeline stores them: with their source's id (a feed stream follows it)
      const source = await makeSource(db, { topicId: topic.id, name: sourceName });
      const titles: string[] = [];
      for (let i = 0; i < 3; i++) {
        const title = `${sourceName} story ${i}`;
        const a = await makeArticle(db, {
          topicId: topic.id,
          source: sourceName,
          sourceId: source.id,
          title,
          summary: `What ${sourceName} found, part ${i}`,
          translations: { 'zh-TW': { title: `${zh}報導 ${i}`, summary: `${zh}的發現，第 ${i} 部分` } },
          publishedAt: new Date(Date.UTC(2026, 0, 10 + i)),
          scrapedAt: new Date(Date.UTC(2026, 0, 10 + i)),
        });
        ids[title] = a.id;
        chinese[title] = `${zh}的發現，第 ${i} 部分`;
        titles.push(title);
      }
      topics.push({ label: topic.name, source: sourceName, feedUrl: source.url, titles });
    }
    // the library signs in by itself (ClientLogin, then /token before its first POST)
    roles = [
      { role: 'api role', api: new GoogleReaderApi(urls.apiUrl, email, token) },
      { role: 'web role', api: new GoogleReaderApi(urls.webUrl, email, token) },
    ];
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    await t?.close();
  });

  /** the web app's own list of the reader's articles, with their read state */
  const webApp = async () =>
    (await t.app.inject({ url: '/articles?limit=100', headers: session.headers })).json<{
      items: { id: string; title: string; is_read: boolean }[];
    }>().items;
  const readInWebApp = async () =>
    (await webApp())
      .filter((a) => a.is_read)
      .map((a) => a.title)
      .sort();
  const labelStream = (label: string) => `user/-/label/${label}`;
  const contents = (api: GoogleReaderApi, streamId: string, excludeRead = false) =>
    api.getStreamContents({ streamId, itemsPerPage: 100, ...(excludeRead ? { excludeStreamId: READ } : {}) });

  it('signs in with the token, lists the topics as labels and the sources as subscriptions in them', async () => {
    for (const { role, api } of roles) {
      // ClientLogin's Auth is what the library then sends as `GoogleLogin auth=`
      expect(await api.clientLogin(), role).toMatch(/^ais_pat_/);
      const tags = await api.getTagList();
      const tagIds = tags.map((tag) => tag.id);
      expect(tagIds, role).toContain(STARRED);
      for (const topic of topics) expect(tagIds, role).toContain(labelStream(topic.label));
      const subscriptions = await api.getSubscriptionList();
      for (const topic of topics) {
        const sub = subscriptions.find((s) => s.id === `feed/${topic.feedUrl}`);
        expect(sub?.title, role).toBe(topic.source);
        expect(sub?.categories, role).toContainEqual({ id: labelStream(topic.label), label: topic.label });
      }
      const counts = await api.getUnreadCounts();
      for (const topic of topics)
        expect(counts.unreadcounts.find((c) => c.id === labelStream(topic.label))?.count, role).toBe(3);
    }
  });

  it('reads every topic’s stream: every title, each with the summary block in en and zh-TW', async () => {
    for (const { role, api } of roles) {
      for (const topic of topics) {
        const stream = await contents(api, labelStream(topic.label));
        expect(stream.items.map((i) => i.title).sort(), role).toEqual([...topic.titles].sort());
        for (const item of stream.items) {
          // the library's types name the body `content` (FreshRSS's full mode); the stream carries
          // `summary` as FreshRSS's compat mode and Miniflux do
          const body = (item as unknown as { summary: { content: string } }).summary.content;
          expect(item.id, role).toBe(longItemId(ids[item.title]!));
          expect(body, item.title).toContain('ais-summary');
          expect(body, item.title).toContain(`What ${topic.source} found`);
          expect(body, item.title).toContain(chinese[item.title]!);
          expect(item.categories, item.title).toContain(labelStream(topic.label));
          expect(item.categories, item.title).not.toContain(READ);
        }
        // the source's own stream, as a subscription, holds the same articles
        const feed = await contents(api, `feed/${topic.feedUrl}`);
        expect(feed.items.map((i) => i.title).sort(), role).toEqual([...topic.titles].sort());
      }
      const everything = await contents(api, 'user/-/state/com.google/reading-list');
      expect(everything.items.map((i) => i.title).sort(), role).toEqual(Object.keys(ids).sort());
      // one item again by its id, through the library's POST (which fetches the POST token first)
      const [one] = (await api.getStreamItemContents([longItemId(ids['Ice Report story 2']!)])).items;
      expect(one?.title, role).toBe('Ice Report story 2');
    }
  });

  it('marking an article read in the library marks it read in the web app, and unread again', async () => {
    const picks = { 'api role': 'Qubit Weekly story 1', 'web role': 'Ice Report story 0' } as const;
    for (const { role, api } of roles) {
      const title = picks[role as keyof typeof picks];
      const stream = await contents(api, 'user/-/state/com.google/reading-list');
      const item = stream.items.find((i) => i.title === title)!;
      expect(await api.editTag({ editIds: [item.id], addIds: [READ] }), role).toBe('OK');
      expect(await readInWebApp(), role).toEqual([title]);
      // the library sees it too: gone from the unread stream (xt=read), read in the full one
      const unread = await contents(api, 'user/-/state/com.google/reading-list', true);
      expect(
        unread.items.map((i) => i.title),
        role,
      ).not.toContain(title);
      expect(unread.items, role).toHaveLength(5);
      expect(await api.editTag({ editIds: [item.id], removeIds: [READ] }), role).toBe('OK');
      expect(await readInWebApp(), role).toEqual([]);
    }
  });

  it('an article marked read in the web app is read in the library on its next request, and unread again', async () => {
    const title = 'Qubit Weekly story 2';
    const label = labelStream(topics[0]!.label);
    const id = ids[title]!;
    expect(
      (await t.app.inject({ method: 'PUT', url: `/articles/${id}/read`, headers: session.headers }))
        .statusCode,
    ).toBeLessThan(300);
    for (const { role, api } of roles) {
      const all = await contents(api, label);
      expect(all.items.find((i) => i.title === title)?.categories, role).toContain(READ);
      const unread = await contents(api, label, true);
      expect(unread.items.map((i) => i.title).sort(), role).toEqual(
        topics[0]!.titles.filter((x) => x !== title).sort(),
      );
      const counts = await api.getUnreadCounts();
      expect(counts.unreadcounts.find((c) => c.id === label)?.count, role).toBe(2);
    }
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/articles/${id}/read`, headers: session.headers }))
        .statusCode,
    ).toBeLessThan(300);
    for (const { role, api } of roles) {
      const all = await contents(api, label);
      expect(all.items.find((i) => i.title === title)?.categories, role).not.toContain(READ);
      expect((await contents(api, label, true)).items, role).toHaveLength(3);
    }
  });

  it('starring in the library makes a favorite in the web app, and unstarring removes it', async () => {
    const favorites = async () =>
      (await t.app.inject({ url: '/user/favorites', headers: session.headers })).json<{
        article_ids: string[];
      }>().article_ids;
    for (const { role, api } of roles) {
      const title = role === 'api role' ? 'Ice Report story 1' : 'Qubit Weekly story 0';
      const itemId = longItemId(ids[title]!);
      expect(await api.editTag({ editIds: [itemId], addIds: [STARRED] }), role).toBe('OK');
      expect(await favorites(), role).toEqual([ids[title]]);
      const starred = await contents(api, STARRED);
      expect(
        starred.items.map((i) => i.title),
        role,
      ).toEqual([title]);
      expect(starred.items[0]?.categories, role).toContain(STARRED);
      expect(await api.editTag({ editIds: [itemId], removeIds: [STARRED] }), role).toBe('OK');
      expect(await favorites(), role).toEqual([]);
      expect((await contents(api, STARRED)).items, role).toEqual([]);
    }
  });

  it('mark-all-as-read on a topic’s label reads that topic in the web app, and only that one', async () => {
    const [first, second] = topics;
    const api = roles[1]!.api;
    expect(await api.markAllAsRead({ streamId: labelStream(first!.label) })).toBe('OK');
    expect(await readInWebApp()).toEqual([...first!.titles].sort());
    expect((await contents(api, labelStream(second!.label), true)).items).toHaveLength(3);
    expect((await contents(api, labelStream(first!.label), true)).items).toEqual([]);
  });
});
