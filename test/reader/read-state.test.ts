import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic, type ArticleRow } from '../helpers/article-factories.js';

interface Item {
  id: string;
  is_read: boolean;
}
interface Page {
  items: Item[];
  total: number;
}
type Headers = { authorization: string };

describe.each(dbKinds())('read state on %s', (kind) => {
  let t: TestApp;
  let topicA: string;
  let topicB: string;
  let inA: ArticleRow[];
  let inB: ArticleRow[];
  const req = (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, headers?: Headers, body?: object) =>
    t.app.inject({ method, url, headers, ...(body ? { payload: body } : {}) });
  const list = async (url: string, headers?: Headers) => {
    const res = await req('GET', url, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>();
  };
  const counts = async (headers: Headers) => {
    const res = await req('GET', '/me/unread-counts', headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ items: { topic_id: string; unread: number }[]; total: number }>();
  };

  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    const db = t.container.database.db;
    topicA = (await makeTopic(db)).id;
    topicB = (await makeTopic(db)).id;
    inA = [];
    inB = [];
    for (let i = 0; i < 6; i++)
      inA.push(
        await makeArticle(db, {
          topicId: topicA,
          title: i % 2 ? `Solar cells ${i}` : `Wind turbines ${i}`,
          scrapedAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
        }),
      );
    for (let i = 0; i < 3; i++) inB.push(await makeArticle(db, { topicId: topicB, title: `Tides ${i}` }));
  });
  afterAll(() => t?.close());

  it('refuses guests (401) and unknown articles (404)', async () => {
    const u = await t.login();
    expect((await req('PUT', `/articles/${inA[0]!.id}/read`)).statusCode).toBe(401);
    expect((await req('DELETE', `/articles/${inA[0]!.id}/read`)).statusCode).toBe(401);
    expect((await req('POST', '/articles/read', undefined, {})).statusCode).toBe(401);
    expect((await req('GET', '/me/unread-counts')).statusCode).toBe(401);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await req('PUT', `/articles/${unknown}/read`, u.headers)).statusCode).toBe(404);
    expect((await req('DELETE', `/articles/${unknown}/read`, u.headers)).statusCode).toBe(404);
    expect((await req('PUT', '/articles/not-a-uuid/read', u.headers)).statusCode).toBe(422);
  });

  it('marks read and unread, idempotently, per user', async () => {
    const u = await t.login();
    const other = await t.login();
    const id = inA[1]!.id;
    const isRead = async (h: Headers) =>
      (await list(`/articles?topic_id=${topicA}&limit=100`, h)).items.find((i) => i.id === id)!.is_read;
    expect(await isRead(u.headers)).toBe(false);
    for (let n = 0; n < 2; n++)
      expect((await req('PUT', `/articles/${id}/read`, u.headers)).statusCode).toBe(204);
    expect(await isRead(u.headers)).toBe(true);
    expect(await isRead(other.headers)).toBe(false);
    const guest = await list(`/articles?topic_id=${topicA}&limit=100`);
    expect(guest.items.every((i) => i.is_read === false)).toBe(true);
    for (let n = 0; n < 2; n++)
      expect((await req('DELETE', `/articles/${id}/read`, u.headers)).statusCode).toBe(204);
    expect(await isRead(u.headers)).toBe(false);
  });

  it('opening an article marks it read for a signed-in reader, not for a guest', async () => {
    const u = await t.login();
    const id = inA[2]!.id;
    const guest = await req('GET', `/articles/${id}`);
    expect(guest.json().is_read).toBe(false);
    const first = await req('GET', `/articles/${id}`, u.headers);
    expect(first.statusCode).toBe(200);
    expect(first.json().is_read).toBe(true);
    expect((await req('GET', `/articles/${id}`, u.headers)).json().is_read).toBe(true);
    const page = await list(`/articles?topic_id=${topicA}&unread_only=true&limit=100`, u.headers);
    expect(page.items.map((i) => i.id)).not.toContain(id);
    expect(page.total).toBe(5);
  });

  it('unread_only lists only unread articles, keeps the sort, and is ignored for guests', async () => {
    const u = await t.login();
    for (const r of [inA[0]!, inA[3]!, inA[5]!])
      expect((await req('PUT', `/articles/${r.id}/read`, u.headers)).statusCode).toBe(204);
    const page = await list(
      `/articles?topic_id=${topicA}&unread_only=true&sort=scraped_at&order=desc`,
      u.headers,
    );
    expect(page.items.map((i) => i.id)).toEqual([inA[4]!.id, inA[2]!.id, inA[1]!.id]);
    expect(page.total).toBe(3);
    expect(page.items.every((i) => !i.is_read)).toBe(true);
    const byTitle = await list(
      `/articles?topic_id=${topicA}&unread_only=true&sort=title&order=asc`,
      u.headers,
    );
    expect(byTitle.items.map((i) => i.id)).toEqual([inA[1]!.id, inA[2]!.id, inA[4]!.id]);
    expect((await list(`/articles?topic_id=${topicA}&unread_only=true`)).total).toBe(6);
  });

  it('marks all articles of a filter read and the unread counts follow', async () => {
    const u = await t.login();
    expect(await counts(u.headers)).toEqual({
      items: [
        { topic_id: topicA, unread: 6 },
        { topic_id: topicB, unread: 3 },
      ].sort((x, y) => x.topic_id.localeCompare(y.topic_id)),
      total: 9,
    });
    expect((await req('PUT', `/articles/${inA[1]!.id}/read`, u.headers)).statusCode).toBe(204);
    // a filter: only the solar articles of topic A (1, 3, 5), one of them already read
    const solar = await req('POST', '/articles/read', u.headers, { topic_id: topicA, q: 'solar' });
    expect(solar.statusCode, solar.body).toBe(200);
    expect(solar.json()).toEqual({ marked: 2, undo_token: expect.any(String) });
    const after = await counts(u.headers);
    expect(after.items.find((c) => c.topic_id === topicA)?.unread).toBe(3);
    expect(after.total).toBe(6);

    const all = await req('POST', '/articles/read', u.headers, { topic_id: topicA });
    expect(all.json()).toEqual({ marked: 3, undo_token: expect.any(String) });
    expect(await counts(u.headers)).toEqual({ items: [{ topic_id: topicB, unread: 3 }], total: 3 });
    expect((await list(`/articles?topic_id=${topicA}&unread_only=true`, u.headers)).total).toBe(0);
    expect((await req('POST', '/articles/read', u.headers, { nope: 1 })).statusCode).toBe(422);
    // nothing left to mark: no batch to undo
    const again = await req('POST', '/articles/read', u.headers, { topic_id: topicA });
    expect(again.json()).toEqual({ marked: 0, undo_token: null });
  });

  it('counts first (dry run), and undo makes exactly that batch unread again', async () => {
    const u = await t.login();
    const other = await t.login();
    expect((await req('PUT', `/articles/${inB[0]!.id}/read`, u.headers)).statusCode).toBe(204);
    const dry = await req('POST', '/articles/read', u.headers, { topic_id: topicB, dry_run: true });
    expect(dry.json()).toEqual({ marked: 2, undo_token: null });
    expect((await counts(u.headers)).total).toBe(8);

    const done = await req('POST', '/articles/read', u.headers, { topic_id: topicB });
    const { marked, undo_token } = done.json<{ marked: number; undo_token: string }>();
    expect(marked).toBe(2);
    // another reader's read state and another batch are not touched by this undo
    await req('POST', '/articles/read', other.headers, { topic_id: topicB });
    const undo = await req('POST', '/articles/read/undo', u.headers, { undo_token });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json()).toEqual({ unmarked: 2 });
    const unread = await list(`/articles?topic_id=${topicB}&unread_only=true`, u.headers);
    expect(unread.items.map((i) => i.id).sort()).toEqual([inB[1]!.id, inB[2]!.id].sort());
    expect((await list(`/articles?topic_id=${topicB}&unread_only=true`, other.headers)).total).toBe(0);
    // a second undo finds nothing; a forged token is refused; guests are refused
    expect((await req('POST', '/articles/read/undo', u.headers, { undo_token })).json()).toEqual({
      unmarked: 0,
    });
    const forged = await req('POST', '/articles/read/undo', u.headers, { undo_token: "'; drop table x; --" });
    expect(forged.statusCode).toBe(422);
    expect(forged.json<{ error: { code: string } }>().error.code).toBe('invalid_undo_token');
    expect((await req('POST', '/articles/read/undo', undefined, { undo_token })).statusCode).toBe(401);
  });
});
