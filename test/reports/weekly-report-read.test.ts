import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { insertArticle, insertReport, insertTopic } from '../helpers/report-factories.js';

describe.each(dbKinds())('weekly report endpoints (%s)', (dbKind) => {
  let t: TestApp;
  const db = () => t.container.database.db;
  const get = async (url: string) => {
    const res = await t.app.inject({ url });
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as unknown) : undefined };
  };

  beforeAll(async () => {
    t = await buildTestApp({ db: dbKind });
  });
  afterAll(() => t?.close());

  it('serves older reports whose stored ids are not UUIDs with empty sources, without error', async () => {
    const topic = await insertTopic(db());
    await insertReport(db(), {
      topicId: topic.id,
      weekStartDate: '2026-01-05',
      articleIds: ['42', 'arxiv:2401.1'],
    });
    const res = await get(`/weekly-reports/latest?topic_id=${topic.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ week_start_date: '2026-01-05', sources: [] });
  });

  it('serves sources index-aligned with the stored ids', async () => {
    const topic = await insertTopic(db());
    const a = await insertArticle(db(), topic.id, { title: 'First' });
    const b = await insertArticle(db(), topic.id, { title: 'Second' });
    await insertReport(db(), { topicId: topic.id, weekStartDate: '2026-01-05', articleIds: [b.id, a.id] });
    const res = await get(`/weekly-reports/by-week?topic_id=${topic.id}&week_start=2026-01-05`);
    expect((res.body as { sources: { title: string }[] }).sources.map((s) => s.title)).toEqual([
      'Second',
      'First',
    ]);
  });

  it('latest returns only completed reports, or JSON null', async () => {
    const topic = await insertTopic(db());
    const none = await t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}` });
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe('null');
    await insertReport(db(), { topicId: topic.id, weekStartDate: '2026-03-02', title: 'Done' });
    await insertReport(db(), {
      topicId: topic.id,
      weekStartDate: '2026-03-09',
      status: 'pending',
      title: 'Busy',
    });
    const res = await get(`/weekly-reports/latest?topic_id=${topic.id}`);
    expect(res.body).toMatchObject({ title: 'Done', status: 'completed' });
  });

  it('lists newest week first with total, limit and offset', async () => {
    const topic = await insertTopic(db());
    for (const week of ['2026-04-06', '2026-04-20', '2026-04-13'])
      await insertReport(db(), { topicId: topic.id, weekStartDate: week, title: week });
    const page = await get(`/weekly-reports?topic_id=${topic.id}&limit=2&offset=1`);
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect((page.body as { items: { title: string }[] }).items.map((i) => i.title)).toEqual([
      '2026-04-13',
      '2026-04-06',
    ]);
    const all = await get(`/weekly-reports?topic_id=${topic.id}`);
    expect(all.body).toMatchObject({ total: 3, limit: 10, offset: 0 });
  });

  it('refuses a missing topic_id, a bad locale, unknown fields and a bad week', async () => {
    expect((await get('/weekly-reports')).status).toBe(422);
    const topic = await insertTopic(db());
    expect((await get(`/weekly-reports?topic_id=${topic.id}&locale=fr`)).status).toBe(422);
    expect((await get(`/weekly-reports/latest?topic_id=${topic.id}&foo=1`)).status).toBe(422);
    expect((await get(`/weekly-reports/by-week?topic_id=${topic.id}&week_start=2026-13-01`)).status).toBe(
      422,
    );
  });

  it('schedules the job weekly on Monday 08:00', () => {
    expect(t.container.jobs.find((j) => j.name === 'weekly-report')?.cron).toBe('0 8 * * 1');
  });

  it('serves no file outside the media directory', async () => {
    for (const path of ['/media/../package.json', '/media/%2e%2e/package.json', '/media/covers/none.png'])
      expect((await t.app.inject({ url: path })).statusCode).toBe(404);
  });
});
