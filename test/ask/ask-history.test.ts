import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { loadEvalCorpus } from '../../bench/support/ask-corpus.js';
import { ask } from './ask-helpers.js';

/**
 * Without a language model the answer quotes the best passages (labelled as such); the asker's
 * history is the asker's alone and can be cleared; the per-user limit answers 429 with Retry-After.
 */
describe('POST /ask without a provider, history and limits', () => {
  let t: TestApp;
  let ids: Map<string, string>;

  beforeAll(async () => {
    t = await buildTestApp({ env: { RATE_LIMIT_ASK_PER_MINUTE: '3' } });
    ({ ids } = await loadEvalCorpus(t.container.database.db));
  });
  afterAll(() => t.close());

  it('answers extractively: quoted passages, labelled, grounded', async () => {
    const me = await t.login('user');
    const res = await ask(t.app, me.headers, {
      question: 'How many countries were surveyed for the 2018 Rule of Law Index?',
    });
    expect(res.status).toBe(200);
    expect(res.json.method).toBe('extractive');
    expect(res.json.abstained).toBe(false);
    expect(res.json.answer.split('\n')[0]).toBe(
      'Quoted from the most relevant articles (no language model is configured):',
    );
    expect(res.json.answer).toContain('113');
    expect(res.json.citations[0]!.article_id).toBe(ids.get('g38'));
    expect(res.json.grounding.removed).toEqual([]);
    expect(res.json.grounding.sentences.every((s) => s.support === 'supported')).toBe(true);
  });

  it('abstains extractively when no passage holds enough of the question', async () => {
    const me = await t.login('user');
    const res = await ask(t.app, me.headers, {
      question: 'Which dengue fever vaccine did the World Health Organization approve?',
    });
    expect(res.json).toMatchObject({ abstained: true, method: 'extractive', citations: [] });
  });

  it("keeps each user's questions for that user only, newest first, until cleared", async () => {
    const a = await t.login('user');
    const b = await t.login('user');
    await ask(t.app, a.headers, { question: 'How old was NBA veteran Rasual Butler when he died?' });
    await ask(t.app, a.headers, { question: 'Where were the top secret Australian government files found?' });
    await ask(t.app, b.headers, { question: 'Which character did Mark Salling play in Glee?' });
    const history = async (h: { authorization: string }) =>
      (await t.app.inject({ method: 'GET', url: '/ask/history', headers: h })).json<{
        items: { question: string; answer: string; citations: { article_id: string }[] }[];
        total: number;
      }>();
    const mine = await history(a.headers);
    expect(mine.total).toBe(2);
    expect(mine.items.map((i) => i.question)).toEqual([
      'Where were the top secret Australian government files found?',
      'How old was NBA veteran Rasual Butler when he died?',
    ]);
    expect(mine.items[1]!.citations[0]!.article_id).toBe(ids.get('g24'));
    const theirs = await history(b.headers);
    expect(theirs.items.map((i) => i.question)).toEqual(['Which character did Mark Salling play in Glee?']);

    const cleared = await t.app.inject({ method: 'DELETE', url: '/ask/history', headers: a.headers });
    expect(cleared.statusCode).toBe(204);
    expect((await history(a.headers)).total).toBe(0);
    expect((await history(b.headers)).total).toBe(1);
    const page = await t.app.inject({ method: 'GET', url: '/ask/history?limit=0', headers: b.headers });
    expect(page.statusCode).toBe(422);
  });

  it('refuses guests on the history with 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/ask/history' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/ask/history' })).statusCode).toBe(401);
  });

  it('limits questions per user: 429 with Retry-After past the limit, another user unaffected', async () => {
    const a = await t.login('user');
    const b = await t.login('user');
    const q = { question: 'At what age did the scholar Gene Sharp die?' };
    for (let i = 0; i < 3; i++) expect((await ask(t.app, a.headers, q)).status).toBe(200);
    const over = await ask(t.app, a.headers, q);
    expect(over.status).toBe(429);
    expect(over.json.error?.code).toBe('rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ask(t.app, b.headers, q)).status).toBe(200);
    // a refused guest is not counted against anyone
    expect((await ask(t.app, {}, q)).status).toBe(401);
  });
});
