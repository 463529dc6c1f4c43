import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../helpers/db.js';
import { startReportEnv, type ReportEnv } from '../helpers/report-env.js';
import { insertArticle, insertProvider, insertSubscriber, insertTopic } from '../helpers/report-factories.js';
import { weeklyReports } from '../../src/infrastructure/db/schema/index.js';
import { bestSentence, sentences } from '../../src/application/reports/extractive-digest.js';

const WEEK = '2026-11-09';
const inWeek = (day: number) => new Date(Date.UTC(2026, 10, 9 + day, 12));
const markers = (s: string) => [...s.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));

describe('the best sentence of an article', () => {
  it('splits Latin and CJK sentences and keeps an article’s own [3] from reading as a citation', () => {
    expect(sentences('First one. Second [3] one! 第三句。第四句？')).toEqual([
      'First one.',
      'Second (3) one!',
      '第三句。',
      '第四句？',
    ]);
  });

  it('picks the sentence that says most about the title, with its figures, over a generic opening', () => {
    const summary =
      'Large models are everywhere these days and many people use them. ' +
      'We show that sparse mixture-of-experts routing cuts inference cost by 42% at equal quality. ' +
      'Code is available.';
    expect(bestSentence({ title: 'Sparse mixture-of-experts routing', summary, content: null }, 'LLMs')).toBe(
      'We show that sparse mixture-of-experts routing cuts inference cost by 42% at equal quality.',
    );
    // no summary: the content; no text at all: nothing
    expect(
      bestSentence(
        {
          title: 'X',
          summary: null,
          content: '<p>Only <b>content</b> here, long enough to stand alone.</p>',
        },
        'T',
      ),
    ).toBe('Only content here, long enough to stand alone.');
    expect(bestSentence({ title: 'X', summary: '  ', content: null }, 'T')).toBeNull();
  });
});

describe.each(dbKinds())('weekly report without a language model (%s)', (dbKind) => {
  let env: ReportEnv;
  const db = () => env.t.container.database.db;

  beforeAll(async () => {
    env = await startReportEnv(dbKind);
  });
  afterAll(() => env?.close());

  it('writes an extractive digest of the top articles, each quoted and cited, labelled and delivered in both languages', async () => {
    const topic = await insertTopic(db(), 'Quantum Sensing');
    const abstract = (title: string, claim: string) =>
      `In recent years the field has grown. ${claim} Further work is needed.`.replace('TITLE', title);
    const most = await insertArticle(db(), topic.id, {
      title: 'Diamond NV magnetometry',
      citations: 30,
      publishedAt: inWeek(1),
      summary: abstract('', 'Diamond NV magnetometry reaches 3 pT sensitivity at room temperature.'),
    });
    const viewed = await insertArticle(db(), topic.id, {
      title: 'Atom interferometers in the field',
      viewCount: 80,
      publishedAt: inWeek(2),
      summary: abstract('', 'Portable atom interferometers measured gravity in the field for 14 days.'),
    });
    const quiet = await insertArticle(db(), topic.id, {
      title: 'A quiet paper',
      publishedAt: inWeek(3),
      summary: 'A quiet paper on squeezed light [7] and its limits in practice today.',
    });
    for (let i = 0; i < 9; i++)
      await insertArticle(db(), topic.id, { title: `Filler ${i}`, publishedAt: inWeek(0) });
    await insertArticle(db(), topic.id, { title: 'Another week', citations: 999, publishedAt: inWeek(-4) });
    const en = await insertSubscriber(db(), topic.id, { settings: { locale: 'en' } });
    const zh = await insertSubscriber(db(), topic.id, {
      settings: { locale: 'zh-TW', messengerEnabled: true, messengerChatId: '2001' },
    });
    const mails = env.smtp.messages.length;

    const res = await env.runJob({ topic_id: topic.id, week_start: WEEK });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().topics[0]).toMatchObject({
      status: 'created',
      article_count: 8,
      deliveries: { email: { sent: 2, failed: 0 }, messenger: { sent: 1, failed: 0 } },
    });
    // nothing asked of a model: there is none
    expect(env.llm.chatCalls).toHaveLength(0);

    const report = (await env.t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}` })).json();
    expect(report).toMatchObject({ method: 'extractive', status: 'completed', article_count: 8 });
    expect(report.title).toBe("Quantum Sensing: the week's 8 top articles");
    // the topic's ranking: citations, then views, then publication date
    expect(report.sources.slice(0, 3).map((s: { id: string }) => s.id)).toEqual([
      most.id,
      viewed.id,
      quiet.id,
    ]);
    expect(report.sources).toHaveLength(8);
    expect(markers(report.summary_text)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // grounded by construction: each cited line quotes its own article's best sentence
    const lines = (report.summary_text as string).split('\n').filter((l) => l.startsWith('- '));
    expect(lines[0]).toBe(
      '- **Diamond NV magnetometry**: Diamond NV magnetometry reaches 3 pT sensitivity at room temperature. [1]',
    );
    expect(lines[1]).toContain(
      'Portable atom interferometers measured gravity in the field for 14 days. [2]',
    );
    expect(lines[2]).toContain('squeezed light (7) and its limits');
    expect(report.summary_text).not.toContain('Another week');
    // the local cover
    expect(report.cover_image_url).toMatch(/\/media\/covers\/.+\.png$/);

    const zhReport = (
      await env.t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}&locale=zh-TW` })
    ).json();
    expect(zhReport.title).toBe('Quantum Sensing：本週 8 篇重點文章');
    expect(zhReport.summary_text).toContain('本週 **Quantum Sensing** 最重要的 8 篇文章');
    expect(markers(zhReport.summary_text)).toEqual(markers(report.summary_text));
    expect(zhReport.method).toBe('extractive');

    // delivered like any report, labelled in the reader's language
    const sent = env.smtp.messages.slice(mails);
    const mailTo = (email: string) => sent.find((m) => m.to[0] === email)!;
    expect(mailTo(en.email).text).toContain('Written without a language model');
    expect(mailTo(en.email).text).toContain('Diamond NV magnetometry reaches 3 pT sensitivity');
    expect(mailTo(zh.email).text).toContain('本報告未使用語言模型撰寫');
    expect(env.telegram.messages.find((m) => m.chat_id === '2001')!.text).toContain('未使用語言模型');

    const [row] = await db().select().from(weeklyReports).where(eq(weeklyReports.topicId, topic.id));
    expect(row!.method).toBe('extractive');
    // quoted, so grounded by construction: every cited line supported, nothing removed
    expect(report.grounding).toMatchObject({ score: 1, method: 'local', removed: [] });
    expect(report.grounding.sentences).toHaveLength(8);
    expect(report.grounding.sentences[0].evidence[0]).toEqual({
      n: 1,
      quote: 'Diamond NV magnetometry reaches 3 pT sensitivity at room temperature.',
    });
  });

  it('a model draft whose every citation fails the check is replaced by the extractive digest', async () => {
    await insertProvider(db(), { baseUrl: env.llm.baseUrl, type: 'text' });
    const answer = env.llm.chat;
    env.llm.chat = () =>
      JSON.stringify({ title: 'Breakthroughs', summary_text: 'Quantum computers broke RSA encryption [1].' });
    try {
      const topic = await insertTopic(db(), 'Cryptography');
      await insertArticle(db(), topic.id, {
        title: 'Lattice signatures in practice',
        summary: 'Lattice signatures now sign 10,000 messages per second on a laptop.',
        publishedAt: inWeek(2),
      });
      const res = await env.runJob({ topic_id: topic.id, week_start: WEEK });
      expect(res.json().topics[0]).toMatchObject({ status: 'created' });
      const report = (await env.t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}` })).json();
      expect(report.method).toBe('extractive');
      expect(report.summary_text).not.toContain('RSA');
      expect(report.summary_text).toContain(
        'Lattice signatures now sign 10,000 messages per second on a laptop. [1]',
      );
    } finally {
      env.llm.chat = answer;
    }
  });
});
