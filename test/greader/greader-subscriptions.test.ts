import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { HttpPeer } from '../peers/http-peer.js';
import { makeToken } from '../mcp/mcp-helpers.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/feeds/${path}`, import.meta.url));
const RSS = fixture('node-feedparser/rss2sample.xml');
const ATOM = fixture('rss-parser/heise.atom');
/** a real page linking one feed (`/feed`, on the page's host) */
const ONE_FEED_PAGE = fixture('discovery/coldsweat-html5-xhtml.html');

interface Subscription {
  id: string;
  title: string;
  url: string;
  categories: { id: string; label: string }[];
}
interface Source {
  id: string;
  name: string;
  url: string;
  topic_id: string;
  enabled: boolean;
}

/**
 * subscription/edit (subscribe, edit, unsubscribe) and subscription/quickadd end to end, as a feed
 * app sends them (a form body, `GoogleLogin auth=` with an admin's write token), against feeds on a
 * loopback server: the source appears, changes and is disabled in the admin's list and in the
 * app's subscription/list. A reader (session or write token) is refused with 403 and changes nothing.
 */
describe.each(dbKinds())('Google Reader API: subscriptions (%s)', (db) => {
  let t: TestApp;
  let peer: HttpPeer;
  let admin: Record<string, string>;
  let adminApp: Record<string, string>;
  let readerSession: Record<string, string>;
  let readerApp: Record<string, string>;
  let first: { id: string; name: string };
  let second: { id: string; name: string };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const gl = (token: string) => ({ authorization: `GoogleLogin auth=${token}` });

  beforeAll(async () => {
    peer = await new HttpPeer((req, res) => {
      const send = (type: string, body: Buffer | string, status = 200) =>
        void res.writeHead(status, { 'content-type': type }).end(body);
      if (req.path === '/feed.xml') return send('application/rss+xml', RSS);
      if (req.path === '/feed') return send('application/atom+xml', ATOM);
      if (req.path === '/site/') return send('text/html; charset=utf-8', ONE_FEED_PAGE);
      if (req.path === '/plain') return send('text/plain', 'hello world');
      return send('text/html', '<h1>Not Found</h1>', 404);
    }).start();
    t = await buildTestApp({ db });
    const a = await t.login('admin');
    admin = a.headers;
    adminApp = gl((await makeToken(t, a, 'write')).token);
    const r = await t.login('user');
    readerSession = r.headers;
    readerApp = gl((await makeToken(t, r, 'write')).token);
    const topic = async (name: string) =>
      (await t.app.inject({ method: 'POST', url: '/admin/topics', headers: admin, payload: { name } })).json<{
        id: string;
        name: string;
      }>();
    // "AAA…" sorts before every other active topic: quickadd's default
    first = await topic(`AAA Reader subscriptions ${db}`);
    second = await topic(`Reader moved ${db}`);
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });

  const post = (path: string, headers: Record<string, string>, body: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `/reader/api/0/${path}`,
      headers: { ...headers, ...form },
      payload: new URLSearchParams(body).toString(),
    });
  /** the admin's sources as a subscription change touches them (a first fetch may still be ending) */
  const sources = async () =>
    (await t.app.inject({ url: '/admin/sources', headers: admin }))
      .json<Source[]>()
      .map(({ id, name, url, topic_id, enabled }) => ({ id, name, url, topic_id, enabled }));
  const sourceOf = async (url: string) => (await sources()).find((s) => s.url === url);
  const subscriptions = async (headers: Record<string, string>) =>
    (await t.app.inject({ url: '/reader/api/0/subscription/list?output=json', headers })).json<{
      subscriptions: Subscription[];
    }>().subscriptions;

  it('subscribe adds the feed in the label’s topic with the title; edit renames and moves it; unsubscribe disables it', async () => {
    const url = `${peer.url}/feed.xml`;
    const s = `feed/${url}`;
    const sub = await post('subscription/edit', adminApp, {
      ac: 'subscribe',
      s,
      t: 'Liftoff',
      a: `user/-/label/${second.name}`,
    });
    expect(sub.statusCode).toBe(200);
    expect(sub.body).toBe('OK');
    expect(await sourceOf(url)).toMatchObject({ name: 'Liftoff', topic_id: second.id, enabled: true });
    // a reader's app sees it under the label
    expect(await subscriptions(readerApp)).toContainEqual(
      expect.objectContaining({
        id: s,
        title: 'Liftoff',
        categories: [{ id: `user/-/label/${second.name}`, label: second.name }],
      }),
    );

    const edit = await post('subscription/edit', adminApp, {
      ac: 'edit',
      s,
      t: 'Liftoff News',
      a: `user/-/label/${first.name}`,
    });
    expect(edit.statusCode).toBe(200);
    expect(await sourceOf(url)).toMatchObject({ name: 'Liftoff News', topic_id: first.id, enabled: true });
    // an edit with a title only keeps the topic
    expect((await post('subscription/edit', adminApp, { ac: 'edit', s, t: 'Liftoff 2' })).statusCode).toBe(
      200,
    );
    expect(await sourceOf(url)).toMatchObject({ name: 'Liftoff 2', topic_id: first.id });

    const unsub = await post('subscription/edit', adminApp, { ac: 'unsubscribe', s });
    expect(unsub.statusCode).toBe(200);
    // disabled, not deleted; gone from the apps' list
    expect(await sourceOf(url)).toMatchObject({ name: 'Liftoff 2', enabled: false });
    expect((await subscriptions(readerApp)).map((x) => x.id)).not.toContain(s);

    // subscribing again enables the same source (no second one)
    expect(
      (await post('subscription/edit', adminApp, { ac: 'subscribe', s, a: `user/-/label/${second.name}` }))
        .statusCode,
    ).toBe(200);
    const again = (await sources()).filter((x) => x.url === url);
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ enabled: true, topic_id: second.id });
    expect((await subscriptions(readerApp)).map((x) => x.id)).toContain(s);
  });

  it('refuses what it cannot do with 400 or 404 and changes nothing', async () => {
    const before = await sources();
    const url = `${peer.url}/feed.xml`;
    for (const [body, status] of [
      [{ ac: 'subscribe', s: `feed/${url}`, a: 'user/-/label/No such topic' }, 400],
      [{ ac: 'subscribe', s: `user/-/label/${first.name}` }, 400],
      [{ ac: 'rename', s: `feed/${url}` }, 400],
      [{ ac: 'edit', s: `feed/${peer.url}/never-added.xml`, t: 'x' }, 404],
      [{ ac: 'unsubscribe', s: `feed/${peer.url}/never-added.xml` }, 404],
      [{ ac: 'subscribe' }, 400],
    ] as const) {
      const res = await post('subscription/edit', adminApp, body as Record<string, string>);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
    }
    expect(await sources()).toEqual(before);
  });

  it('quickadd finds the feed a page links and puts it in the first topic by name', async () => {
    const res = await post('subscription/quickadd', adminApp, { quickadd: `${peer.url}/site/` });
    expect(res.statusCode).toBe(200);
    const feed = `${peer.url}/feed`;
    expect(res.json()).toMatchObject({ query: `${peer.url}/site/`, numResults: 1, streamId: `feed/${feed}` });
    expect(await sourceOf(feed)).toMatchObject({ topic_id: first.id, enabled: true });
    expect((await subscriptions(readerApp)).map((x) => x.id)).toContain(`feed/${feed}`);
    // the same address again adds nothing
    expect(
      (await post('subscription/quickadd', adminApp, { quickadd: `${peer.url}/site/` })).statusCode,
    ).toBe(200);
    expect((await sources()).filter((s) => s.url === feed)).toHaveLength(1);
    // some apps send a stream id (`feed/<url>`): FreshRSS's quickadd strips the prefix, so do we
    const prefixed = await post('subscription/quickadd', adminApp, { quickadd: `feed/${peer.url}/site/` });
    expect(prefixed.statusCode, prefixed.body).toBe(200);
    expect(prefixed.json()).toMatchObject({ numResults: 1, streamId: `feed/${feed}` });
    expect((await sources()).filter((s) => s.url === feed)).toHaveLength(1);

    // an address without a feed: no result, no source
    const none = await post('subscription/quickadd', adminApp, { quickadd: `${peer.url}/plain` });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toMatchObject({ numResults: 0 });
    expect(await sourceOf(`${peer.url}/plain`)).toBeUndefined();
    expect(
      (await post('subscription/quickadd', adminApp, { quickadd: 'ftp://example.org/x' })).statusCode,
    ).toBe(400);
  });

  it('a reader (session or write token) gets 403 for every subscription change, and nothing changes', async () => {
    const before = await sources();
    const feed = `feed/${peer.url}/feed.xml`;
    for (const headers of [readerSession, readerApp]) {
      for (const [path, body] of [
        ['subscription/edit', { ac: 'subscribe', s: `feed/${peer.url}/feed`, t: 'Mine' }],
        ['subscription/edit', { ac: 'edit', s: feed, t: 'Mine' }],
        ['subscription/edit', { ac: 'unsubscribe', s: feed }],
        ['subscription/quickadd', { quickadd: `${peer.url}/site/` }],
      ] as const) {
        const res = await post(path, headers, body as Record<string, string>);
        expect(res.statusCode, `${path} ${JSON.stringify(body)}`).toBe(403);
      }
    }
    expect(await sources()).toEqual(before);
  });
});
