import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeTopic } from '../helpers/article-factories.js';

describe('subscriptions and notification settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('subscribes, lists with the topic name, is idempotent per pair, unsubscribes', async () => {
    const topic = await makeTopic(t.container.database.db, { name: 'Quantum', slug: 'quantum' });
    const u = await t.login('user');
    const sub = await t.app.inject({
      method: 'POST',
      url: '/user/subscriptions',
      headers: u.headers,
      payload: { topic_id: topic.id },
    });
    expect(sub.statusCode).toBe(201);
    expect(sub.json()).toMatchObject({ topic_id: topic.id });
    const again = await t.app.inject({
      method: 'POST',
      url: '/user/subscriptions',
      headers: u.headers,
      payload: { topic_id: topic.id },
    });
    expect(again.json().id).toBe(sub.json().id);
    const list = (await t.app.inject({ url: '/user/subscriptions', headers: u.headers })).json();
    expect(list.subscriptions).toEqual([
      { topic_id: topic.id, topic_name: 'Quantum', created_at: expect.any(String) },
    ]);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/user/subscriptions/${topic.id}`, headers: u.headers }))
        .statusCode,
    ).toBe(204);
    expect(
      (await t.app.inject({ url: '/user/subscriptions', headers: u.headers })).json().subscriptions,
    ).toEqual([]);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/user/subscriptions',
      headers: u.headers,
      payload: { topic_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('answers defaults, upserts settings, and validates locale and chat id', async () => {
    const u = await t.login('user');
    const get = () => t.app.inject({ url: '/user/notification-settings', headers: u.headers });
    // e-mail defaults off (issue 18); the test app has neither SMTP nor a Telegram bot
    expect((await get()).json()).toEqual({
      email_enabled: false,
      messenger_chat_id: null,
      messenger_enabled: false,
      locale: 'en',
      reader_summary_block: true,
      delivery: { email: false, telegram: false },
    });
    const body = {
      email_enabled: false,
      messenger_chat_id: '12345',
      messenger_enabled: true,
      locale: 'zh-TW',
    };
    const put = await t.app.inject({
      method: 'PUT',
      url: '/user/notification-settings',
      headers: u.headers,
      payload: body,
    });
    expect(put.statusCode).toBe(200);
    // a body without reader_summary_block (an older client) leaves it as it was: on
    const view = { ...body, reader_summary_block: true, delivery: { email: false, telegram: false } };
    expect(put.json()).toEqual(view);
    expect((await get()).json()).toEqual(view);
    const bad = (payload: object) =>
      t.app.inject({ method: 'PUT', url: '/user/notification-settings', headers: u.headers, payload });
    expect((await bad({ ...body, locale: 'fr' })).statusCode).toBe(422);
    expect((await bad({ ...body, messenger_chat_id: null })).statusCode).toBe(422);
    expect((await bad({ ...body, extra: 1 })).statusCode).toBe(422);
    for (const chat of ['hello world', '@abc', '12ab', '--5', '@' + 'a'.repeat(33), '0']) {
      const r = await bad({ ...body, messenger_chat_id: chat });
      expect(r.statusCode, chat).toBe(422);
      expect(r.json().error.code, chat).toBe('messenger_chat_id_invalid');
    }
    for (const chat of ['-1001234567890', '987654321', '@my_channel']) {
      const r = await bad({ ...body, messenger_chat_id: chat });
      expect(r.statusCode, chat).toBe(200);
      expect(r.json().messenger_chat_id).toBe(chat);
    }
  });

  it("keeps every user's subscriptions and settings their own", async () => {
    const topic = await makeTopic(t.container.database.db);
    const alice = await t.login('user');
    const bob = await t.login('user');
    await t.app.inject({
      method: 'POST',
      url: '/user/subscriptions',
      headers: alice.headers,
      payload: { topic_id: topic.id },
    });
    await t.app.inject({
      method: 'PUT',
      url: '/user/notification-settings',
      headers: alice.headers,
      payload: { email_enabled: false, messenger_chat_id: '1', messenger_enabled: true, locale: 'zh-TW' },
    });
    expect(
      (await t.app.inject({ url: '/user/subscriptions', headers: bob.headers })).json().subscriptions,
    ).toEqual([]);
    expect(
      (await t.app.inject({ url: '/user/notification-settings', headers: bob.headers })).json().locale,
    ).toBe('en');
    // Bob's delete of the same topic leaves Alice subscribed
    await t.app.inject({ method: 'DELETE', url: `/user/subscriptions/${topic.id}`, headers: bob.headers });
    expect(
      (await t.app.inject({ url: '/user/subscriptions', headers: alice.headers })).json().subscriptions,
    ).toHaveLength(1);
    expect((await t.app.inject({ url: '/user/subscriptions' })).statusCode).toBe(401);
  });
});

describe('notification settings with delivery channels configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { SMTP_URL: 'smtp://127.0.0.1:1', TELEGRAM_BOT_TOKEN: '123:test-token' },
    });
  });
  afterAll(() => t.close());

  it('says both channels are available, and e-mail still defaults off', async () => {
    const u = await t.login('user');
    const got = (await t.app.inject({ url: '/user/notification-settings', headers: u.headers })).json();
    expect(got.delivery).toEqual({ email: true, telegram: true });
    expect(got.email_enabled).toBe(false);
  });

  it("the language signed up in is the notifications' language; without one it is English", async () => {
    const register = (email: string, locale?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: { email, password: 'a-long-password-9', ...(locale ? { locale } : {}) },
      });
    const settingsOf = async (res: Awaited<ReturnType<typeof register>>) => {
      expect(res.statusCode, res.body).toBe(201);
      const token = res.json<{ access_token: string }>().access_token;
      const got = await t.app.inject({
        url: '/user/notification-settings',
        headers: { authorization: `Bearer ${token}` },
      });
      return got.json<{ locale: string }>().locale;
    };
    expect(await settingsOf(await register('zh-reader@example.test', 'zh-TW'))).toBe('zh-TW');
    expect(await settingsOf(await register('en-reader@example.test', 'en'))).toBe('en');
    expect(await settingsOf(await register('no-locale@example.test'))).toBe('en');
    const bad = await register('bad-locale@example.test', 'fr');
    expect(bad.statusCode).toBe(422);
  });
});
