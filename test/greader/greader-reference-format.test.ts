import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeSource, makeTopic } from '../helpers/article-factories.js';
import { makeToken } from '../mcp/mcp-helpers.js';

/**
 * Our Google Reader API answers against the shapes the two reference servers give, read from their
 * sources (only the shapes are used; no code is copied; see test/greader/SOURCES.md):
 *
 * - FreshRSS, github.com/FreshRSS/FreshRSS at 6c58b90518c30a165db1ee8ea34e0f3d12c6c898 (AGPL-3.0):
 *   `p/api/greader.php` (clientLogin, token, userInfo, tagList, subscriptionList, unreadCount,
 *   streamContents, streamContentsItemsIds, streamContentsItems, editTag, markAllAsRead, parse) and
 *   `app/Models/Entry.php` (`toGReader`, the item of stream/contents).
 * - Miniflux, github.com/miniflux/v2 at 106cdd09e1557222303f3ed1376e1dadf0638621 (Apache-2.0):
 *   `internal/googlereader/response.go` (the response structs), `handler.go` (ClientLogin with
 *   `output=json`, token, stream/items/ids, stream/items/contents, the plain-text `OK`),
 *   `item.go` + `item_test.go` (the item id forms clients send), `request_modifier.go` and
 *   `parameters.go` (r, ot, nt, xt, it, c), `response.go` (`X-Reader-Google-Bad-Token`).
 *
 * Where the two differ we take what both accept (e.g. timestampUsec: FreshRSS's crawl time).
 */
const LONG = /^tag:google\.com,2005:reader\/item\/[0-9a-f]{16}$/;
const DIGITS = /^\d+$/;
const READING_LIST = 'user/-/state/com.google/reading-list';
const READ = 'user/-/state/com.google/read';
const STARRED = 'user/-/state/com.google/starred';

/** the signed 64-bit decimal of a long item id (Google Reader's itemRefs id) */
const decimalOf = (long: string) => BigInt.asIntN(64, BigInt(`0x${long.slice(-16)}`)).toString();

describe.each(dbKinds())('Google Reader API formats against FreshRSS and Miniflux on %s', (kind) => {
  let t: TestApp;
  let email: string;
  let write: string;
  let read: string;
  let topicName: string;
  let feedUrl: string;
  const ids: Record<string, string> = {};
  const gl = (token: string) => ({ authorization: `GoogleLogin auth=${token}` });
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const day = 86_400_000;
  // whole seconds: `published` is in seconds
  const base = Math.floor((Date.now() - 5 * day) / 1000) * 1000;
  const get = async (url: string, token = read) => {
    const res = await t.app.inject({ url, headers: gl(token) });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res;
  };
  const post = (url: string, body: string | URLSearchParams, token = write) =>
    t.app.inject({ method: 'POST', url, headers: { ...gl(token), ...form }, payload: String(body) });

  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    email = `ref-${Date.now()}@example.test`;
    const reader = await t.login('user', email);
    write = (await makeToken(t, reader, 'write')).token;
    read = (await makeToken(t, reader, 'read')).token;
    const db = t.container.database.db;
    const topic = await makeTopic(db, { name: `Reference ${Date.now()}` });
    topicName = topic.name;
    const source = await makeSource(db, { topicId: topic.id, name: 'Ref Wire' });
    feedUrl = source.url;
    // three articles; the first's id begins with zeros, as Miniflux's small integer ids do, so the
    // id forms of NetNewsWire (unpadded long form) and Reeder (padded hex) can be sent for it
    for (const [i, name] of ['alpha', 'beta', 'gamma'].entries()) {
      const a = await makeArticle(db, {
        ...(i === 0 ? { id: '00000000-0000-4468-8000-000000000001' } : {}),
        topicId: topic.id,
        sourceId: source.id,
        source: 'Ref Wire',
        title: name,
        url: `https://ref.example.test/${name}`,
        canonicalUrl: `https://ref.example.test/${name}`,
        author: i === 1 ? 'Ada Lovelace' : null,
        content: `${name} body`,
        publishedAt: new Date(base + i * day),
        scrapedAt: new Date(base + i * day + 90_000),
      });
      ids[name] = a.id;
    }
  }, 120_000);
  afterAll(() => t?.close());

  it('ClientLogin: plain-text SID/LSID/Auth lines, JSON with output=json (Miniflux), 401 otherwise', async () => {
    const login = (extra: Record<string, string> = {}, passwd = write) =>
      t.app.inject({
        method: 'POST',
        url: '/accounts/ClientLogin',
        headers: form,
        payload: new URLSearchParams({ Email: email, Passwd: passwd, ...extra }).toString(),
      });
    const text = await login();
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    // FreshRSS: 'SID=', $auth, "\n", 'LSID=null', "\n", 'Auth=', $auth, "\n"; Miniflux: the
    // same three lines with its token in each. Clients read the Auth line.
    const lines = /^SID=(\S+)\nLSID=(\S+)\nAuth=(\S+)\n$/.exec(text.body);
    expect(lines, text.body).not.toBeNull();
    const auth = lines![3]!;
    expect((await get('/reader/api/0/user-info?output=json', auth)).json().userEmail).toBe(email);

    const json = await login({ output: 'json' });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.json()).toEqual({ SID: auth, LSID: auth, Auth: auth });

    const bad = await login({}, 'not-a-token');
    expect(bad.statusCode).toBe(401);
  });

  it('a refused token is a 401 with the Bad-Token headers both references send', async () => {
    for (const token of ['ais_pat_0000000000_0000000000000000000000000000000000000000', 'garbage']) {
      const res = await t.app.inject({ url: '/reader/api/0/tag/list?output=json', headers: gl(token) });
      expect(res.statusCode).toBe(401);
      expect(res.headers['google-bad-token']).toBe('true'); // FreshRSS unauthorized()
      expect(res.headers['x-reader-google-bad-token']).toBe('true'); // Miniflux sendUnauthorizedResponse
    }
  });

  it('token: one line of plain text (the T of later POSTs)', async () => {
    const res = await get('/reader/api/0/token');
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/^\S+\n?$/);
  });

  it('user-info: userId, userName, userProfileId, userEmail as strings', async () => {
    const info = (await get('/reader/api/0/user-info?output=json')).json();
    for (const k of ['userId', 'userName', 'userProfileId', 'userEmail'])
      expect(typeof info[k], k).toBe('string');
    expect(info.userEmail).toBe(email);
  });

  it('tag/list: starred first with no type, labels as folders', async () => {
    const { tags } = (await get('/reader/api/0/tag/list?output=json')).json();
    // both put {"id": "user/-/state/com.google/starred"} first, then one folder per category
    expect(tags[0]).toEqual({ id: STARRED });
    expect(tags).toContainEqual(expect.objectContaining({ id: `user/-/label/${topicName}`, type: 'folder' }));
    for (const tag of tags.slice(1)) expect(tag.id).toMatch(/^user\/-\/label\/.+/);
  });

  it('subscription/list: id feed/…, title, categories [{id, label}], url, htmlUrl, iconUrl', async () => {
    const { subscriptions } = (await get('/reader/api/0/subscription/list?output=json')).json();
    const sub = subscriptions.find((s: { id: string }) => s.id === `feed/${feedUrl}`);
    expect(sub).toMatchObject({
      id: `feed/${feedUrl}`,
      title: 'Ref Wire',
      url: feedUrl,
      categories: [{ id: `user/-/label/${topicName}`, label: topicName }],
    });
    for (const s of subscriptions) {
      expect(s.id).toMatch(/^feed\//);
      for (const k of ['title', 'url', 'htmlUrl', 'iconUrl']) expect(typeof s[k], k).toBe('string');
      for (const c of s.categories) expect(c.id).toBe(`user/-/label/${c.label}`);
    }
  });

  it('unread-count: max, unreadcounts of {id, count (number), newestItemTimestampUsec (string)}', async () => {
    const body = (await get('/reader/api/0/unread-count?output=json')).json();
    expect(typeof body.max).toBe('number');
    for (const c of body.unreadcounts) {
      expect(typeof c.id).toBe('string');
      expect(typeof c.count).toBe('number');
      expect(c.newestItemTimestampUsec).toMatch(DIGITS);
    }
    const newest = String((base + 2 * day + 90_000) * 1000); // gamma's crawl time in µs
    const byId = new Map(body.unreadcounts.map((c: { id: string }) => [c.id, c]));
    expect(byId.get(`feed/${feedUrl}`)).toEqual({
      id: `feed/${feedUrl}`,
      count: 3,
      newestItemTimestampUsec: newest,
    });
    expect(byId.get(`user/-/label/${topicName}`)).toEqual({
      id: `user/-/label/${topicName}`,
      count: 3,
      newestItemTimestampUsec: newest,
    });
    expect(byId.get(READING_LIST)).toMatchObject({ count: 3, newestItemTimestampUsec: newest });
  });

  it('edit-tag and mark-all-as-read answer a plain-text OK', async () => {
    const hexBeta = longOf(ids.beta!);
    // Reeder sends T=x, FeedMe an empty T (FreshRSS checkToken accepts both)
    for (const body of [
      new URLSearchParams({ i: hexBeta, a: STARRED, T: 'x' }),
      new URLSearchParams({ i: decimalOf(hexBeta), a: READ, T: '' }),
    ]) {
      const res = await post('/reader/api/0/edit-tag', body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe('OK');
    }
    const mark = await post(
      '/reader/api/0/mark-all-as-read',
      new URLSearchParams({ s: `feed/${feedUrl}`, ts: String((base + day / 2) * 1000) }),
    );
    expect(mark.statusCode, mark.body).toBe(200);
    expect(mark.headers['content-type']).toMatch(/^text\/plain/);
    expect(mark.body).toBe('OK');
  });

  it('stream/contents: the item of FreshRSS toGReader / Miniflux contentItem', async () => {
    const res = await get(
      `/reader/api/0/stream/contents/${encodeURIComponent(`feed/${feedUrl}`)}?n=2&output=json`,
    );
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toMatchObject({ direction: 'ltr', id: `feed/${feedUrl}` });
    expect(Number.isInteger(body.updated)).toBe(true);
    expect(Math.abs(body.updated - Date.now() / 1000)).toBeLessThan(120); // seconds, not ms
    expect(typeof body.continuation).toBe('string'); // FreshRSS: '' . $entry->id()
    expect(body.items.map((i: { title: string }) => i.title)).toEqual(['gamma', 'beta']);
    const beta = body.items[1];
    expect(Object.keys(beta).sort()).toEqual(
      expect.arrayContaining(
        [
          'id',
          'crawlTimeMsec',
          'timestampUsec',
          'published',
          'updated',
          'title',
          'canonical',
          'alternate',
          'categories',
          'origin',
          'summary',
          'author',
        ].sort(),
      ),
    );
    expect(beta.id).toMatch(LONG);
    // FreshRSS: crawlTimeMsec = dateAdded in ms, timestampUsec = dateAdded in µs, both strings
    expect(beta.crawlTimeMsec).toBe(String(base + day + 90_000));
    expect(beta.timestampUsec).toBe(`${beta.crawlTimeMsec}000`);
    // published and updated: whole seconds, numbers
    expect(beta.published).toBe((base + day) / 1000);
    expect(Number.isInteger(beta.updated)).toBe(true);
    expect(beta.title).toBe('beta');
    expect(beta.author).toBe('Ada Lovelace');
    expect(beta.canonical).toEqual([{ href: 'https://ref.example.test/beta' }]);
    expect(beta.alternate).toEqual([{ href: 'https://ref.example.test/beta', type: 'text/html' }]);
    expect(beta.origin).toEqual({ streamId: `feed/${feedUrl}`, title: 'Ref Wire', htmlUrl: feedUrl });
    expect(beta.summary.content).toContain('<p>beta body</p>');
    // categories: reading-list first, the label, then the read and starred states
    expect(beta.categories[0]).toBe(READING_LIST);
    expect(beta.categories).toEqual(expect.arrayContaining([`user/-/label/${topicName}`, READ, STARRED]));
    const gamma = body.items[0];
    expect(gamma.categories).not.toContain(READ);
    expect(gamma.categories).not.toContain(STARRED);
    expect('author' in gamma).toBe(false); // FreshRSS leaves an empty author out

    // the continuation gives the rest, and no item twice
    const rest = (
      await get(
        `/reader/api/0/stream/contents/${encodeURIComponent(`feed/${feedUrl}`)}?n=2&c=${encodeURIComponent(body.continuation)}`,
      )
    ).json();
    expect(rest.items.map((i: { title: string }) => i.title)).toEqual(['alpha']);
    expect(rest.continuation).toBeUndefined();
  });

  it('stream/items/ids: itemRefs with a decimal id and a timestampUsec string; continuation a string', async () => {
    const q = new URLSearchParams({ s: `user/-/label/${topicName}`, n: '2', output: 'json' });
    const body = (await get(`/reader/api/0/stream/items/ids?${q}`)).json();
    expect(body.itemRefs).toHaveLength(2);
    expect(typeof body.continuation).toBe('string');
    const contents = (
      await get(`/reader/api/0/stream/contents/${encodeURIComponent(`user/-/label/${topicName}`)}?n=2`)
    ).json();
    body.itemRefs.forEach(
      (ref: { id: string; timestampUsec: string; directStreamIds: unknown }, i: number) => {
        // FreshRSS: 'id' => '' . $entryId (64-bit decimal); Miniflux: strconv.FormatInt(entryID, 10)
        expect(ref.id).toMatch(/^-?\d+$/);
        expect(ref.id).toBe(decimalOf(contents.items[i].id));
        expect(ref.timestampUsec).toBe(contents.items[i].timestampUsec);
        expect(Array.isArray(ref.directStreamIds)).toBe(true);
      },
    );
    // POST works as GET (FreshRSS reads $_GET, Miniflux the form; some apps post long forms)
    const posted = await post('/reader/api/0/stream/items/ids', q, read);
    expect(posted.statusCode).toBe(200);
    expect(posted.json()).toEqual(body);
  });

  it('stream/items/contents takes every id form clients send (Miniflux item_test.go)', async () => {
    // alpha's 64 bits are 0x4468: long padded, NetNewsWire's unpadded long form, Reeder's padded
    // hex, Liferea's decimal
    const forms = [
      'tag:google.com,2005:reader/item/0000000000004468',
      'tag:google.com,2005:reader/item/4468',
      '0000000000004468',
      String(0x4468),
    ];
    for (const i of forms) {
      const res = await post('/reader/api/0/stream/items/contents', new URLSearchParams({ i }), read);
      expect(res.statusCode, `${i}: ${res.body}`).toBe(200);
      const body = res.json();
      expect(body.id).toBe(READING_LIST);
      expect(
        body.items.map((x: { title: string }) => x.title),
        i,
      ).toEqual(['alpha']);
      expect(body.items[0].id).toBe('tag:google.com,2005:reader/item/0000000000004468');
    }
    // several i, in one form
    const many = new URLSearchParams();
    for (const i of forms.slice(0, 2)) many.append('i', i);
    const hexGamma = longOf(ids.gamma!);
    many.append('i', hexGamma);
    const both = (await post('/reader/api/0/stream/items/contents', many, read)).json();
    expect(both.items.map((x: { title: string }) => x.title).sort()).toEqual(['alpha', 'gamma']);
  });
});

/** the long item id of one of our uuids (its first 64 bits) */
const longOf = (uuid: string) => `tag:google.com,2005:reader/item/${uuid.replace(/-/g, '').slice(0, 16)}`;
