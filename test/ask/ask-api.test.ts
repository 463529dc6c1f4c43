import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import { passageModel } from '../peers/ask-model.js';
import { loadEvalCorpus } from '../../bench/support/ask-corpus.js';
import { addTextProvider, ask, askStream, type AskAnswerJson } from './ask-helpers.js';

/**
 * POST /ask against the evaluation corpus with a real OpenAI-compatible peer on loopback: the
 * answer cites the right article, a citation outside the passages is dropped, a zh-TW question
 * over English articles is answered, nothing relevant → abstention; streamed as server-sent events.
 */
describe('POST /ask', () => {
  let t: TestApp;
  let llm: OpenAiPeer;
  let base: string;
  let user: { headers: { authorization: string } };
  let ids: Map<string, string>;
  let topicId: string;

  beforeAll(async () => {
    llm = await new OpenAiPeer(passageModel()).start();
    t = await buildTestApp();
    ({ ids, topicId } = await loadEvalCorpus(t.container.database.db));
    const admin = await t.login('admin');
    await addTextProvider(t.app, admin.headers, llm.baseUrl);
    user = await t.login('user');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    await llm.stop();
  });

  it('refuses guests with 401', async () => {
    const res = await ask(t.app, {}, { question: 'Who is the chief executive of the Tax Justice Network?' });
    expect(res.status).toBe(401);
    expect(res.json.error?.code).toBe('unauthorized');
  });

  it.each([
    [{ question: '' }, 422, 'question_empty'],
    [{ question: ' \n\t ' }, 422, 'question_empty'],
    [{ question: 'x'.repeat(501) }, 422, 'question_too_long'],
    [{ question: 'ok?', topic_id: 'not-a-uuid' }, 422, 'invalid_topic_id'],
    [{ question: 'ok?', topic_id: '00000000-0000-4000-8000-000000000000' }, 404, 'topic_not_found'],
    [{ question: 'ok?', since: 'last week' }, 422, 'invalid_since'],
    [{ question: 'ok?', since: '2018-02-31x' }, 422, 'invalid_since'],
    [{ question: 'ok?', language: 'fr' }, 422, 'invalid_language'],
    [{ question: 'ok?', extra: 1 }, 422, 'validation_error'],
    [{ question: 42 }, 422, 'validation_error'],
  ])('validates %j → %i %s', async (body, status, code) => {
    const res = await ask(t.app, user.headers, body);
    expect(res.status).toBe(status);
    expect(res.json.error?.code).toBe(code);
  });

  it('accepts exactly 500 characters', async () => {
    const res = await ask(t.app, user.headers, { question: `${'word '.repeat(99)}word` });
    expect(res.status).toBe(200);
  });

  it('answers from the article that holds the answer, grounded and cited', async () => {
    llm.chatCalls = [];
    const res = await ask(t.app, user.headers, {
      question: 'Who is the chief executive of the Tax Justice Network?',
    });
    expect(res.status).toBe(200);
    const a = res.json;
    expect(a.abstained).toBe(false);
    expect(a.method).toBe('model');
    expect(a.language).toBe('en');
    expect(a.answer).toContain('Tax Justice Network');
    expect(a.citations.map((c) => c.article_id)).toEqual([ids.get('g06')]);
    expect(a.citations[0]!.n).toBe(1);
    expect(a.citations[0]!.quote).toContain('Tax Justice Network');
    expect(a.answer).toMatch(/\[1\]/);
    expect(a.grounding.score).toBe(1);
    expect(a.grounding.sentences[0]!.support).toBe('supported');
    // the prompt numbered the passages and carried no article ids
    const prompt = llm.chatCalls[0]!.messages.map((m) => m.content).join('\n');
    expect(prompt).toMatch(/^\[1\] /m);
    expect(prompt).not.toContain(ids.get('g06')!);
  });

  it('answers a zh-TW question over English articles through their stored translation', async () => {
    const res = await ask(t.app, user.headers, { question: '會模仿人類說話的虎鯨叫什麼名字？' });
    expect(res.status).toBe(200);
    expect(res.json.language).toBe('zh-TW');
    expect(res.json.abstained).toBe(false);
    expect(res.json.citations.map((c) => c.article_id)).toEqual([ids.get('g48')]);
    expect(res.json.answer).toMatch(/\p{Script=Han}/u);
    expect(res.json.answer).toContain('虎鯨');
  });

  it('answers an English question over an article written in Chinese (its stored English summary)', async () => {
    const other = await makeTopic(t.container.database.db);
    const a = await makeArticle(t.container.database.db, {
      topicId: other.id,
      title: '台灣半導體廠商擴建新竹晶圓廠',
      content: '台灣一家半導體廠商宣布在新竹擴建晶圓廠，預計投資新台幣 3,000 億元。',
      summary:
        'A Taiwanese semiconductor maker will expand its Hsinchu wafer fab with an investment of NT$300 billion.',
      language: 'zh',
    });
    const res = await ask(t.app, user.headers, {
      question: 'Which wafer fab will the Taiwanese semiconductor maker expand?',
      topic_id: other.id,
    });
    expect(res.json.abstained).toBe(false);
    expect(res.json.citations.map((c) => c.article_id)).toEqual([a.id]);
    expect(res.json.answer).toContain('Hsinchu');
  });

  it('abstains, in the question’s language, when nothing retrieved answers the question', async () => {
    const en = await ask(t.app, user.headers, {
      question: 'What interest rate did the Bank of Japan set in March?',
    });
    expect(en.json).toMatchObject({ abstained: true, citations: [], language: 'en' });
    expect(en.json.answer).toBe('The articles found do not answer this question.');
    const zh = await ask(t.app, user.headers, { question: '特斯拉第四季交付了多少輛電動車？' });
    expect(zh.json).toMatchObject({ abstained: true, citations: [], language: 'zh-TW' });
    expect(zh.json.answer).toBe('找到的文章無法回答這個問題。');
  });

  it('abstains without calling the model when the filters leave nothing to read', async () => {
    llm.chatCalls = [];
    const empty = await makeTopic(t.container.database.db);
    const inTopic = await ask(t.app, user.headers, {
      question: 'Who is the chief executive of the Tax Justice Network?',
      topic_id: empty.id,
    });
    const later = await ask(t.app, user.headers, {
      question: 'Who is the chief executive of the Tax Justice Network?',
      since: '2030-01-01',
    });
    expect(inTopic.json.abstained).toBe(true);
    expect(later.json.abstained).toBe(true);
    expect(llm.chatCalls).toHaveLength(0);
    // the topic the article is in answers it
    const ok = await ask(t.app, user.headers, {
      question: 'Who is the chief executive of the Tax Justice Network?',
      topic_id: topicId,
      since: '2018-01-01',
    });
    expect(ok.json.citations.map((c) => c.article_id)).toEqual([ids.get('g06')]);
  });

  it('answers in the language asked for, whatever the question’s script', async () => {
    const res = await ask(t.app, user.headers, {
      question: 'Why did Facebook ban cryptocurrency adverts?',
      language: 'zh-TW',
    });
    expect(res.json.language).toBe('zh-TW');
    expect(res.json.citations.map((c) => c.article_id)).toEqual([ids.get('g37')]);
  });

  it('drops a sentence that cites a number outside the retrieved passages', async () => {
    llm.chat = passageModel({ stray: true });
    try {
      const s = await askStream(base, user.headers, {
        question: 'Which character did Mark Salling play in Glee?',
      });
      const retrieved = JSON.parse(s.events.find((e) => e.event === 'retrieved')!.data) as {
        passages: { n: number; article_id: string }[];
      };
      const answer = JSON.parse(s.events.find((e) => e.event === 'answer')!.data) as AskAnswerJson;
      expect(answer.abstained).toBe(false);
      expect(answer.answer).not.toContain('42 separate trials');
      expect(answer.grounding.removed).toEqual([
        expect.objectContaining({ reason: 'citation_out_of_range' }),
      ]);
      const allowed = new Set(retrieved.passages.map((p) => p.article_id));
      expect(answer.citations.length).toBeGreaterThan(0);
      for (const c of answer.citations) expect(allowed.has(c.article_id)).toBe(true);
      // nor did the stream ever show it
      const streamed = s.events
        .filter((e) => e.event === 'delta')
        .map((e) => (JSON.parse(e.data) as { text: string }).text)
        .join('');
      expect(streamed).not.toContain('42 separate trials');
      expect(streamed).toContain('Salling');
    } finally {
      llm.chat = passageModel();
    }
  });

  it('streams retrieved, delta and answer events, the answer the same as the JSON one', async () => {
    const body = { question: 'What is the name of the killer whale that imitated human speech?' };
    const s = await askStream(base, user.headers, body);
    expect(s.status).toBe(200);
    expect(s.contentType).toMatch(/^text\/event-stream/);
    const names = s.events.map((e) => e.event);
    expect(names[0]).toBe('retrieved');
    expect(names.at(-1)).toBe('answer');
    expect(names.filter((n) => n === 'delta').length).toBeGreaterThan(0);
    const answer = JSON.parse(s.events.at(-1)!.data) as AskAnswerJson;
    const json = (await ask(t.app, user.headers, body)).json;
    expect({ ...answer, grounding: null }).toEqual({ ...json, grounding: null });
    expect(answer.citations.map((c) => c.article_id)).toEqual([ids.get('g48')]);
  });

  it('answers a refused question with an ordinary error, not a stream', async () => {
    const s = await askStream(base, user.headers, { question: '' });
    expect(s.status).toBe(422);
    expect(s.contentType).toMatch(/application\/json/);
  });

  it('sends an error event when the answer cannot be written, and the stream ends', async () => {
    // the model fails: the answer falls back to quotes; a database failure is what ends in `error`
    llm.chat = () => ({ status: 500 });
    try {
      const s = await askStream(base, user.headers, {
        question: 'Which character did Mark Salling play in Glee?',
      });
      const answer = JSON.parse(s.events.at(-1)!.data) as AskAnswerJson;
      expect(s.events.at(-1)!.event).toBe('answer');
      expect(answer.method).toBe('extractive');
      expect(answer.citations.map((c) => c.article_id)).toEqual([ids.get('g31')]);
    } finally {
      llm.chat = passageModel();
    }
  });

  it('aborts the model call when the client goes away', async () => {
    llm.chunkDelayMs = 150;
    llm.streamsCutShort = 0;
    llm.chat = () => `${'Wikie is a killer whale that can imitate human speech [1]. '.repeat(20)}`;
    try {
      const s = await askStream(
        base,
        user.headers,
        { question: 'What is the name of the killer whale that imitated human speech?' },
        { closeAfter: (e) => e.event === 'retrieved' },
      );
      expect(s.closedByUs).toBe(true);
      await expect.poll(() => llm.streamsCutShort, { timeout: 5000 }).toBe(1);
    } finally {
      llm.chunkDelayMs = 0;
      llm.chat = passageModel();
    }
  });

  it("records the model's tokens of an answer under ask on the Service tab's usage", async () => {
    const admin = await t.login('admin');
    const usage = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/admin/service-stats', headers: admin.headers });
      expect(res.statusCode).toBe(200);
      const days = res.json<{
        llm_usage_per_day: {
          purpose: string;
          calls: number;
          prompt_tokens: number;
          completion_tokens: number;
        }[];
      }>().llm_usage_per_day;
      return days.filter((d) => d.purpose === 'ask');
    };
    const sum = (rows: { calls: number; prompt_tokens: number }[]) =>
      rows.reduce((a, r) => ({ calls: a.calls + r.calls, prompt: a.prompt + r.prompt_tokens }), {
        calls: 0,
        prompt: 0,
      });
    // what earlier tests' calls left in memory is written within a second: count from after that
    await new Promise((r) => setTimeout(r, 1500));
    const before = sum(await usage());
    const res = await ask(t.app, user.headers, {
      question: 'Who is the chief executive of the Tax Justice Network?',
    });
    expect(res.status).toBe(200);
    // the recorder writes once a second: wait for the answer's calls (writing, then judging) to show
    await expect
      .poll(async () => sum(await usage()).calls, { timeout: 10_000 })
      .toBeGreaterThan(before.calls);
    expect(sum(await usage()).prompt).toBeGreaterThan(before.prompt);
  });
});
