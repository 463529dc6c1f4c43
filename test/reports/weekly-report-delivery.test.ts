import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/db.js';
import { startReportEnv, type ReportEnv } from '../helpers/report-env.js';
import { insertArticle, insertProvider, insertSubscriber, insertTopic } from '../helpers/report-factories.js';
import { schemaOf } from '../peers/openai-peer.js';
import { notificationDeliveries, topics, weeklyReports } from '../../src/infrastructure/db/schema/index.js';

const DAY = 86_400_000;

describe.each(dbKinds())('weekly report delivery and job runs (%s)', (dbKind) => {
  let env: ReportEnv;
  const db = () => env.t.container.database.db;

  beforeAll(async () => {
    env = await startReportEnv(dbKind);
  });
  afterAll(() => env?.close());

  it('writes with the text provider while no multimodal provider is active, and draws the cover locally', async () => {
    await insertProvider(db(), { baseUrl: env.llm.baseUrl, type: 'text' });
    await insertProvider(db(), { baseUrl: env.llm.baseUrl, isActive: false, imageModel: 'img-test' });
    const topic = await insertTopic(db());
    await insertArticle(db(), topic.id, { publishedAt: new Date('2026-11-04T10:00:00Z') });
    const chats = env.llm.chatCalls.length;
    const res = await env.runJob({ topic_id: topic.id, week_start: '2026-11-02' });
    expect(res.statusCode).toBe(200);
    expect(res.json().topics[0]).toMatchObject({ status: 'created', article_count: 1 });
    // the summary, its check and its translation: the text model did all three; no image was asked for
    expect(env.llm.chatCalls.slice(chats).map((c) => schemaOf(c) ?? 'text')).toEqual([
      'text',
      'citation_judgements',
      'text',
    ]);
    expect(env.llm.imageCalls).toHaveLength(0);
    const [report] = await db().select().from(weeklyReports).where(eq(weeklyReports.topicId, topic.id));
    expect(report).toMatchObject({ method: 'model', title: 'Weekly digest' });
    expect(report!.coverImageUrl).toMatch(/\/media\/covers\/.+\.png$/);
  });

  it('refuses a malformed week_start, an unknown topic and a non-admin caller', async () => {
    await insertProvider(db(), { baseUrl: env.llm.baseUrl });
    expect((await env.runJob({ week_start: '2026-02-30' })).statusCode).toBe(422);
    const unknown = await env.runJob({ topic_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    const user = await env.t.login('user');
    const res = await env.t.app.inject({
      method: 'POST',
      url: '/admin/jobs/weekly-reports',
      headers: user.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(403);
  });

  it('keeps delivering when one recipient is refused, records the failure, and a re-run sends only that one', async () => {
    const topic = await insertTopic(db());
    await insertArticle(db(), topic.id, { publishedAt: new Date('2026-10-07T10:00:00Z') });
    const first = await insertSubscriber(db(), topic.id, { email: `first-${topic.id}@example.test` });
    const refused = await insertSubscriber(db(), topic.id, { email: `refused-${topic.id}@example.test` });
    const last = await insertSubscriber(db(), topic.id, {
      email: `last-${topic.id}@example.test`,
      settings: { messengerEnabled: true, messengerChatId: '555' },
    });
    const blocked = await insertSubscriber(db(), topic.id, {
      settings: { emailEnabled: false, messengerEnabled: true, messengerChatId: '666' },
    });
    env.smtp.refuse.add(refused.email);
    env.telegram.refuse.add('666');
    const mails = env.smtp.messages.length;

    const res = await env.runJob({ topic_id: topic.id, week_start: '2026-10-05' });
    expect(res.json().topics[0]).toMatchObject({
      status: 'created',
      deliveries: { email: { sent: 2, failed: 1 }, messenger: { sent: 1, failed: 1 } },
    });
    const got = env.smtp.messages.slice(mails).map((m) => m.to[0]);
    expect(got.sort()).toEqual([first.email, last.email].sort());
    const rows = await db().select().from(notificationDeliveries);
    const row = (userId: string, channel: 'email' | 'messenger') =>
      rows.find((r) => r.userId === userId && r.channel === channel);
    expect(row(refused.id, 'email')).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row(refused.id, 'email')!.error).toMatch(/550|refused|unavailable/i);
    expect(row(blocked.id, 'messenger')).toMatchObject({ status: 'failed' });
    expect(row(blocked.id, 'messenger')!.error).toMatch(/blocked/);
    expect(row(first.id, 'email')).toMatchObject({ status: 'sent' });
    expect(row(last.id, 'messenger')).toMatchObject({ status: 'sent' });

    // the mailbox and the chat accept again: only what failed is sent
    env.smtp.refuse.clear();
    env.telegram.refuse.clear();
    const again = await env.runJob({ topic_id: topic.id, week_start: '2026-10-05' });
    expect(again.json().topics[0]).toMatchObject({
      status: 'existing',
      deliveries: {
        email: { sent: 1, failed: 0, already_sent: 2 },
        messenger: { sent: 1, failed: 0, already_sent: 1 },
      },
    });
    expect(env.smtp.messages.slice(mails).map((m) => m.to[0])).toHaveLength(3);
    expect(env.smtp.messages.at(-1)!.to).toEqual([refused.email]);
    expect(env.telegram.messages.filter((m) => m.chat_id === '666')).toHaveLength(1);
    const [retried] = await db()
      .select()
      .from(notificationDeliveries)
      .where(and(eq(notificationDeliveries.userId, refused.id), eq(notificationDeliveries.channel, 'email')));
    expect(retried).toMatchObject({ status: 'sent', attempts: 2, error: null });
  });

  it('validates the model answer: one retry, then the topic fails without a report', async () => {
    const answer = env.llm.chat;
    const topic = await insertTopic(db());
    await insertArticle(db(), topic.id, { publishedAt: new Date('2026-08-12T10:00:00Z') });
    let calls = 0;
    env.llm.chat = (call, req) =>
      ++calls === 1 ? 'Sure! Here is your summary.' : calls === 2 ? '{"title": ""}' : answer(call, req);
    try {
      const res = await env.runJob({ topic_id: topic.id, week_start: '2026-08-10' });
      expect(res.json().topics[0]).toMatchObject({ status: 'failed', report_id: null });
      expect(await db().select().from(weeklyReports).where(eq(weeklyReports.topicId, topic.id))).toEqual([]);
      // the next run tries again; a malformed first answer is retried once
      calls = 1;
      const again = await env.runJob({ topic_id: topic.id, week_start: '2026-08-10' });
      expect(again.json().topics[0]).toMatchObject({ status: 'created' });
    } finally {
      env.llm.chat = answer;
    }
  });

  it('two runs at once for one topic and week write one report and send each e-mail once', async () => {
    const topic = await insertTopic(db());
    await insertArticle(db(), topic.id, { publishedAt: new Date('2026-09-09T10:00:00Z') });
    const readers = [];
    for (let i = 0; i < 3; i++) readers.push(await insertSubscriber(db(), topic.id));
    const mails = env.smtp.messages.length;
    const answer = env.llm.chat;
    // a slow model keeps the first run busy while the second one starts
    env.llm.chat = async (call, req) => {
      await new Promise((r) => setTimeout(r, 300));
      return answer(call, req);
    };
    try {
      const [one, two] = await Promise.all([
        env.runJob({ topic_id: topic.id, week_start: '2026-09-07' }),
        env.runJob({ topic_id: topic.id, week_start: '2026-09-07' }),
      ]);
      const statuses = [one, two].map((r) => r.json().topics[0].status).sort();
      expect(statuses[0]).toBe('created');
      expect(['existing', 'skipped']).toContain(statuses[1]);
    } finally {
      env.llm.chat = answer;
    }
    const sent = env.smtp.messages.slice(mails).flatMap((m) => m.to);
    expect(sent.sort()).toEqual(readers.map((r) => r.email).sort());
    const rows = await db().select().from(weeklyReports).where(eq(weeklyReports.topicId, topic.id));
    expect(rows).toHaveLength(1);
  });

  it('without arguments reports on the last full week for every active topic that has articles in it', async () => {
    const lastWeek = new Date(Date.now() - 7 * DAY);
    const active = await insertTopic(db());
    await insertArticle(db(), active.id, { publishedAt: lastWeek });
    const inactive = await insertTopic(db());
    await db().update(topics).set({ isActive: false }).where(eq(topics.id, inactive.id));
    await insertArticle(db(), inactive.id, { publishedAt: lastWeek });
    const stale = await insertTopic(db());
    await insertArticle(db(), stale.id, { publishedAt: new Date(Date.now() - 40 * DAY) });

    const res = await env.runJob();
    expect(res.statusCode).toBe(200);
    const ids = res.json().topics.map((t: { topic_id: string }) => t.topic_id);
    expect(ids).toContain(active.id);
    expect(ids).not.toContain(inactive.id);
    expect(ids).not.toContain(stale.id);
    const mine = res.json().topics.find((t: { topic_id: string }) => t.topic_id === active.id);
    expect(mine).toMatchObject({ status: 'created', article_count: 1 });
  });
});
