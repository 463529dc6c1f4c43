import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticle, type ArticleRow } from '../helpers/article-factories.js';

describe('/user/favorites', () => {
  let t: TestApp;
  let x: ArticleRow;
  let y: ArticleRow;
  beforeAll(async () => {
    t = await buildTestApp();
    x = await makeArticle(t.container.database.db);
    y = await makeArticle(t.container.database.db);
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, headers });

  it('answers 401 without a token or with a bad one', async () => {
    for (const [method, url] of [
      ['GET', '/user/favorites'],
      ['POST', `/user/favorites/${x.id}`],
      ['DELETE', `/user/favorites/${x.id}`],
    ] as const) {
      expect((await call(method, url)).statusCode).toBe(401);
      expect((await call(method, url, { authorization: 'Bearer nope' })).statusCode).toBe(401);
    }
  });

  it('adds with 201, answers 204 when already there, 404 for an unknown article, 422 for a bad id', async () => {
    const u = await t.login();
    expect((await call('POST', `/user/favorites/${x.id}`, u.headers)).statusCode).toBe(201);
    expect((await call('POST', `/user/favorites/${x.id}`, u.headers)).statusCode).toBe(204);
    const unknown = await call('POST', '/user/favorites/00000000-0000-4000-8000-000000000000', u.headers);
    expect(unknown.statusCode).toBe(404);
    expect((await call('POST', '/user/favorites/abc', u.headers)).statusCode).toBe(422);
    expect((await call('GET', '/user/favorites', u.headers)).json()).toEqual({ article_ids: [x.id] });
    expect((await call('DELETE', `/user/favorites/${x.id}`, u.headers)).statusCode).toBe(204);
    expect((await call('DELETE', `/user/favorites/${x.id}`, u.headers)).statusCode).toBe(204);
    expect((await call('GET', '/user/favorites', u.headers)).json()).toEqual({ article_ids: [] });
  });

  it("keeps each user's favorites to themselves", async () => {
    const alice = await t.login();
    const bob = await t.login();
    await call('POST', `/user/favorites/${x.id}`, alice.headers);
    await call('POST', `/user/favorites/${y.id}`, alice.headers);
    await call('POST', `/user/favorites/${y.id}`, bob.headers);

    expect((await call('GET', '/user/favorites', bob.headers)).json().article_ids).toEqual([y.id]);
    // Bob removing "his" x (which only Alice has) and his y leaves Alice's pairs alone
    await call('DELETE', `/user/favorites/${x.id}`, bob.headers);
    await call('DELETE', `/user/favorites/${y.id}`, bob.headers);
    expect((await call('GET', '/user/favorites', bob.headers)).json().article_ids).toEqual([]);
    expect(new Set((await call('GET', '/user/favorites', alice.headers)).json().article_ids)).toEqual(
      new Set([x.id, y.id]),
    );
    // is_favorited follows the caller
    const forBob = (await call('GET', `/articles/${x.id}`, bob.headers)).json();
    const forAlice = (await call('GET', `/articles/${x.id}`, alice.headers)).json();
    expect([forBob.is_favorited, forAlice.is_favorited]).toEqual([false, true]);
  });
});
