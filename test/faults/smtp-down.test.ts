import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReportEnv, type ReportEnv } from '../helpers/report-env.js';
import { insertArticle, insertProvider, insertSubscriber, insertTopic } from '../helpers/report-factories.js';

/** A port nothing listens on: connections are refused at once. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

/** The SMTP server is down during a weekly report run: the report and the other channel still go out. */
describe('SMTP down', () => {
  let env: ReportEnv;
  beforeAll(async () => {
    env = await startReportEnv('pglite', { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
  });
  afterAll(() => env?.close());

  it('completes the report, records the failed e-mails, and still sends the Telegram messages', async () => {
    const db = env.t.container.database.db;
    await insertProvider(db, { baseUrl: env.llm.baseUrl });
    const topic = await insertTopic(db);
    await insertArticle(db, topic.id, { publishedAt: new Date('2026-10-07T10:00:00Z') });
    await insertSubscriber(db, topic.id, { settings: { messengerEnabled: true, messengerChatId: '777' } });
    await insertSubscriber(db, topic.id, {});
    const res = await env.runJob({ topic_id: topic.id, week_start: '2026-10-05' });
    expect(res.statusCode).toBe(200);
    expect(res.json().topics[0]).toMatchObject({
      status: 'created',
      deliveries: { email: { sent: 0, failed: 2 }, messenger: { sent: 1, failed: 0 } },
    });
    expect(env.telegram.messages.map((m) => m.chat_id)).toEqual(['777']);
    const latest = await env.t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}` });
    expect(latest.json()).toMatchObject({ status: 'completed', topic_id: topic.id });
  });
});
