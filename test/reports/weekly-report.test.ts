import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { OpenAiPeer, type ChatCall } from '../peers/openai-peer.js';
import { TelegramPeer } from '../peers/telegram-peer.js';
import { SmtpPeer } from '../peers/smtp-peer.js';
import {
  insertArticle,
  insertProvider,
  insertSubscriber,
  insertTopic,
  pngSize,
} from '../helpers/report-factories.js';
import { weeklyJob } from '../helpers/runs.js';
import { notificationDeliveries } from '../../src/infrastructure/db/schema/index.js';

const SITE = 'https://reports.example.test';
const WEEK = '2026-11-09'; // a Monday
const inWeek = (day: number, hour = 12) => new Date(Date.UTC(2026, 10, 9 + day, hour));

const markers = (s: string) => [...s.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
/** what each article says: the model's claims below are grounded in these (but for [9]) */
const SUMMARIES: Record<string, string> = {
  A: 'Benchmarks moved for planning agents.',
  B: 'Planning improved for agents this week.',
  C: 'Benchmarks moved again on web tasks.',
  D: 'A new dataset of robot trajectories.',
  E: 'See also the survey of planning methods.',
};
const isTranslation = (call: ChatCall) => call.messages[0]!.content.startsWith('Translate');

/** the model: a summary citing [2] [1, 3] [5] and an out-of-range [9]; a translation keeping or dropping markers */
function modelAnswers(opts: { dropMarkerInTranslation?: boolean } = {}) {
  return (call: ChatCall) => {
    if (isTranslation(call)) {
      const src = JSON.parse(call.messages[1]!.content) as { title: string; summary_text: string };
      const zh = src.summary_text
        .replace('Planning improved', '規劃能力提升')
        .replace('Benchmarks moved', '基準測試進步')
        .replace('see also', '另見');
      return JSON.stringify({
        title: '本週：代理學會規劃',
        summary_text: opts.dropMarkerInTranslation ? zh.replace('[4]', '') : zh,
      });
    }
    return JSON.stringify({
      title: 'Agents learn to plan',
      summary_text:
        'Planning improved [2].\n\nBenchmarks moved [1, 3]; see also [5].\n\n- A claim without a source [9].',
    });
  };
}

describe.each(dbKinds())('weekly report job (%s)', (dbKind) => {
  let t: TestApp;
  let llm: OpenAiPeer;
  const telegram = new TelegramPeer();
  const smtp = new SmtpPeer();
  let dataDir: string;
  let admin: { headers: { authorization: string } };

  beforeAll(async () => {
    llm = await new OpenAiPeer(modelAnswers()).start();
    await telegram.start();
    await smtp.start();
    dataDir = mkdtempSync(join(tmpdir(), 'reports-'));
    t = await buildTestApp({
      db: dbKind,
      env: {
        DATA_DIR: dataDir,
        PUBLIC_BASE_URL: SITE,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Digest <digest@example.test>',
        TELEGRAM_BOT_TOKEN: '123:test-token',
        TELEGRAM_API_URL: telegram.url,
      },
    });
    admin = await t.login('admin');
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([llm.stop(), telegram.stop(), smtp.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const db = () => t.container.database.db;
  const runJob = (body: Record<string, string>) => weeklyJob(t.app, t.container.batch, admin.headers, body);

  it('generates a cited, covered, translated report and notifies exactly the opted-in subscribers', async () => {
    await insertProvider(db(), { baseUrl: llm.baseUrl, imageModel: 'img-test' });
    const topic = await insertTopic(db(), 'Agentic AI');
    // expected order: citations desc (missing = 0), views desc, published desc nulls last
    const a = await insertArticle(db(), topic.id, {
      title: 'A',
      summary: SUMMARIES.A,
      citations: 50,
      publishedAt: inWeek(0),
      tags: ['agents', 'planning'],
    });
    const b = await insertArticle(db(), topic.id, {
      title: 'B',
      summary: SUMMARIES.B,
      citations: 10,
      viewCount: 5,
      publishedAt: inWeek(1),
      tags: ['agents'],
    });
    const c = await insertArticle(db(), topic.id, {
      title: 'C',
      summary: SUMMARIES.C,
      viewCount: 100,
      publishedAt: inWeek(3),
      tags: ['agents', 'benchmarks'],
    });
    const d = await insertArticle(db(), topic.id, {
      title: 'D',
      summary: SUMMARIES.D,
      citations: 0,
      viewCount: 100,
      publishedAt: inWeek(2),
    });
    const e = await insertArticle(db(), topic.id, {
      title: 'E',
      summary: SUMMARIES.E,
      publishedAt: null,
      scrapedAt: inWeek(4),
    });
    await insertArticle(db(), topic.id, { title: 'Other week', citations: 999, publishedAt: inWeek(-3) });

    const en = await insertSubscriber(db(), topic.id, {
      name: 'Ada',
      settings: { emailEnabled: true, messengerEnabled: true, messengerChatId: '1001', locale: 'en' },
    });
    const zh = await insertSubscriber(db(), topic.id, { name: '小明', settings: { locale: 'zh-TW' } });
    const defaults = await insertSubscriber(db(), topic.id); // e-mail on, other settings default (en)
    // no settings row at all: e-mail is off by default (issue 18), so no mail below
    await insertSubscriber(db(), topic.id, { settings: null });
    const optedOut = await insertSubscriber(db(), topic.id, {
      settings: { emailEnabled: false, messengerEnabled: false, messengerChatId: '1002' },
    });
    const noChat = await insertSubscriber(db(), topic.id, {
      settings: { emailEnabled: false, messengerEnabled: true, messengerChatId: null },
    });
    const notSubscribed = await insertSubscriber(db(), null, {
      settings: { messengerEnabled: true, messengerChatId: '1003' },
    });

    const res = await runJob({ topic_id: topic.id, week_start: WEEK });
    expect(res.statusCode, res.body).toBe(200);
    const summary = res.json();
    expect(summary.week_start).toBe(WEEK);
    expect(summary.topics).toMatchObject([
      {
        topic_id: topic.id,
        status: 'created',
        article_count: 5,
        deliveries: { email: { sent: 3, failed: 0 }, messenger: { sent: 1, failed: 0 } },
      },
    ]);

    // the prompt: numbered from 1 in the articles' order (A to E), metrics as one signal, no article ids
    const prompt = llm.chatCalls.find((call) => !isTranslation(call))!;
    const user = prompt.messages.map((m) => m.content).join('\n');
    const positions = ['[1] A', '[2] B', '[3] C', '[4] D', '[5] E'].map((line) => user.indexOf(line));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    expect(user).not.toContain('Other week');
    expect(user).toMatch(/one input among several/);
    expect(user).toMatch(/citations: 50/);
    for (const id of [a, b, c, d, e].map((x) => x.id)) expect(user).not.toContain(id);
    expect(prompt.response_format).toEqual({ type: 'json_object' });

    // the report: every [N] indexes sources, renumbered by first citation, [9] removed
    const latest = await t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}` });
    expect(latest.statusCode).toBe(200);
    const report = latest.json();
    expect(report).toMatchObject({
      title: 'Agents learn to plan',
      status: 'completed',
      week_start_date: WEEK,
      article_count: 5,
    });
    // grounded: the claim citing [9] (no such article) is dropped, the others hold up
    expect(report.summary_text).toBe('Planning improved [1].\n\nBenchmarks moved [2][3]; see also [4].');
    expect(report.grounding).toMatchObject({
      score: 1,
      method: 'local',
      removed: [{ text: '- A claim without a source [9].'.slice(2), reason: 'citation_out_of_range' }],
    });
    expect(report.grounding.sentences.map((x: { citations: number[] }) => x.citations)).toEqual([
      [1],
      [2, 3, 4],
    ]);
    expect(report.grounding.sentences[0].evidence).toEqual([{ n: 1, quote: SUMMARIES.B }]);
    expect(report.sources.map((s: { title: string }) => s.title)).toEqual(['B', 'A', 'C', 'E', 'D']);
    for (const n of markers(report.summary_text)) expect(report.sources[n - 1]).toBeDefined();
    expect(report.sources[0]).toEqual({
      id: b.id,
      title: 'B',
      url: b.url,
      public_article_id: b.id,
      coverage: 0,
    });

    // the cover: the provider's image, cropped to 16:9, public under PUBLIC_BASE_URL
    expect(llm.imageCalls).toHaveLength(1);
    expect(llm.imageCalls[0]!.model).toBe('img-test');
    expect(llm.imageCalls[0]!.prompt).toContain('Agentic AI');
    expect(llm.imageCalls[0]!.prompt).toContain('agents');
    expect(report.cover_image_url).toMatch(new RegExp(`^${SITE}/media/covers/.+\\.png$`));
    const cover = await t.app.inject({ url: new URL(report.cover_image_url).pathname });
    expect(cover.statusCode).toBe(200);
    expect(cover.headers['content-type']).toBe('image/png');
    const size = pngSize(cover.rawPayload);
    expect(size.width / size.height).toBeCloseTo(16 / 9, 2);
    expect(size.width).toBeGreaterThanOrEqual(1280);

    // the translation keeps the markers
    const zhReport = (
      await t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}&locale=zh-TW` })
    ).json();
    expect(zhReport.title).toBe('本週：代理學會規劃');
    expect(zhReport.summary_text).toContain('規劃能力提升 [1]');
    expect(markers(zhReport.summary_text)).toEqual(markers(report.summary_text));
    expect(zhReport.sources).toEqual(report.sources);

    // e-mail: one per opted-in subscriber, in their locale, linking to the site root
    expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual([en.email, zh.email, defaults.email].sort());
    const mailTo = (addr: string) => smtp.messages.find((m) => m.to[0] === addr)!;
    const enMail = mailTo(en.email);
    expect(enMail.subject).toBe('Weekly report: Agentic AI — Agents learn to plan');
    expect(enMail.html).toContain('Hi Ada,');
    expect(enMail.html).toContain('View Full Report');
    expect(enMail.html).toContain(`href="${SITE}"`);
    expect(enMail.html).toContain(report.cover_image_url);
    expect(enMail.text).toContain('Planning improved [1].');
    expect(enMail.text).toContain(`View Full Report: ${SITE}`);
    const zhMail = mailTo(zh.email);
    expect(zhMail.subject).toBe('每週報告：Agentic AI — 本週：代理學會規劃');
    expect(zhMail.html).toContain('小明 您好，');
    expect(zhMail.html).toContain('查看完整報告');
    expect(zhMail.html).not.toContain('View Full Report');
    expect(mailTo(defaults.email).subject).toMatch(/^Weekly report: /);

    // Telegram: only the subscriber with messenger on and a chat id
    expect(telegram.messages.map((m) => m.chat_id)).toEqual(['1001']);
    expect(telegram.messages[0]!.text).toContain('Agents learn to plan');
    expect(telegram.messages[0]!.text).toContain(`[1] B\n${b.url}`);
    for (const u of [optedOut, noChat, notSubscribed])
      expect(smtp.messages.some((m) => m.to.includes(u.email))).toBe(false);

    const deliveries = await db().select().from(notificationDeliveries);
    expect(deliveries).toHaveLength(4);
    expect(deliveries.every((row) => row.status === 'sent' && row.reportId === report.id)).toBe(true);

    // a re-run: same report, nothing generated or sent again
    const chats = llm.chatCalls.length;
    const again = await runJob({ topic_id: topic.id, week_start: '2026-11-12' }); // same week
    expect(again.json().topics[0]).toMatchObject({
      status: 'existing',
      report_id: report.id,
      deliveries: { email: { sent: 0, already_sent: 3 }, messenger: { sent: 0, already_sent: 1 } },
    });
    expect(llm.chatCalls.length).toBe(chats);
    expect(smtp.messages).toHaveLength(3);
    expect(telegram.messages).toHaveLength(1);

    // the read side
    const list = (await t.app.inject({ url: `/weekly-reports?topic_id=${topic.id}` })).json();
    expect(list).toMatchObject({ total: 1, limit: 10, offset: 0 });
    expect(list.items[0].id).toBe(report.id);
    const byWeek = await t.app.inject({
      url: `/weekly-reports/by-week?topic_id=${topic.id}&week_start=2026-11-11&locale=zh-TW`,
    });
    expect(byWeek.json()).toMatchObject({ id: report.id, title: '本週：代理學會規劃' });
    const missing = await t.app.inject({
      url: `/weekly-reports/by-week?topic_id=${topic.id}&week_start=2026-11-02`,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('falls back to the original summary when the translation drops a marker, keeping the translated title', async () => {
    llm.chat = modelAnswers({ dropMarkerInTranslation: true });
    await insertProvider(db(), { baseUrl: llm.baseUrl, imageModel: null });
    const topic = await insertTopic(db(), 'Robotics');
    // published one day apart, so [1]..[5] are A..E (the claims are checked against those)
    for (const [i, title] of ['A', 'B', 'C', 'D', 'E'].entries())
      await insertArticle(db(), topic.id, { title, summary: SUMMARIES[title], publishedAt: inWeek(5 - i) });
    const images = llm.imageCalls.length;

    const res = await runJob({ topic_id: topic.id, week_start: WEEK });
    expect(res.json().topics[0].status).toBe('created');
    const en = (await t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}` })).json();
    const zh = (
      await t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}&locale=zh-TW` })
    ).json();
    expect(zh.title).toBe('本週：代理學會規劃');
    expect(zh.summary_text).toBe(en.summary_text);

    // no image model: the cover is drawn locally, still 16:9
    expect(llm.imageCalls.length).toBe(images);
    const cover = await t.app.inject({ url: new URL(en.cover_image_url).pathname });
    expect(cover.statusCode).toBe(200);
    expect(pngSize(cover.rawPayload)).toEqual({ width: 1600, height: 900 });
  });
});
