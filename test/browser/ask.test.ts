import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loadEvalCorpus } from '../../bench/support/ask-corpus.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import { passageModel } from '../peers/ask-model.js';
import { addTextProvider } from '../ask/ask-helpers.js';
import { join } from 'node:path';
import { SCREENSHOTS, VIEWPORTS, startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

// Asking the collected articles in Chromium: the box on the article list, the answer page that
// streams the answer and lists its sources with their quotes, abstentions, quotes without a model,
// errors, and the reader's own history, cleared through the confirmation dialog; en and zh-TW,
// desktop and phone. The corpus is the evaluation set of real news and arXiv texts; the model is a
// deterministic peer that answers from the passages it is given.

const TAX = 'Who is the chief executive of the Tax Justice Network?';
const WHALE_ZH = '會模仿人類說話的虎鯨叫什麼名字？';
const UNANSWERED = 'What interest rate did the Bank of Japan set in March?';
const RULE_OF_LAW = 'How many countries were surveyed for the 2018 Rule of Law Index?';
const ASK_LIMIT = 8;

let env: BrowserEnv;
let llm: OpenAiPeer;
let topicId = '';
let topicName = '';
let ids = new Map<string, string>();
let admin: { headers: Record<string, string> };
let providerId = '';

beforeAll(async () => {
  llm = await new OpenAiPeer(passageModel()).start();
  env = await startBrowserEnv({ env: { RATE_LIMIT_ASK_PER_MINUTE: String(ASK_LIMIT) } });
  const db = env.api.container.database.db;
  ({ topicId, ids } = await loadEvalCorpus(db, 'World news'));
  const topics = await env.api.app.inject({ method: 'GET', url: '/topics' });
  topicName = topics.json<{ id: string; name: string }[]>().find((x) => x.id === topicId)!.name;
  admin = await env.api.login('admin');
  providerId = await addTextProvider(env.api.app, admin.headers, llm.baseUrl);
}, 120_000);
afterAll(async () => {
  await env?.close();
  await llm?.stop();
});

/** the answer of the page (the history below holds answers too) */
const main = (page: Page) => page.getByTestId('ask-main');

/** the top of a long page (the list), as the reader first sees it */
const viewShot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** asks from the list page of the topic, as a reader would: type, press Enter */
async function askFromList(page: Page, question: string) {
  await page.goto(`/articles?topic=${topicId}`);
  const field = page.getByTestId('ask-question');
  await field.fill(question);
  await field.press('Enter');
  await expect.poll(() => new URL(page.url()).pathname).toBe('/ask');
  const url = new URL(page.url());
  expect(url.searchParams.get('q')).toBe(question);
  expect(url.searchParams.get('topic')).toBe(topicId);
}

/** what the Tab key reaches from the top of the page, each with whether its focus ring shows */
async function tabStops(page: Page, max = 90) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const stops: { id: string; ring: string }[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    stops.push(
      await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const id =
          el.dataset.testid ??
          (el.dataset.citation ? `citation-${el.dataset.citation}` : null) ??
          (el.className ? `${el.tagName.toLowerCase()}.${el.className}` : el.tagName.toLowerCase());
        return { id, ring: getComputedStyle(el).outlineStyle };
      }),
    );
  }
  return stops;
}

describe.sequential('asking the articles, in Chromium', () => {
  it('asks from the list page; the answer page streams the answer, then cites its sources with quotes (en)', async () => {
    const { page, context } = await env.newContext({ as: 'user' });
    await page.goto(`/articles?topic=${topicId}`);
    const box = page.getByTestId('ask-box');
    await expect.poll(() => page.getByTestId('article-list').count()).toBe(1);
    await viewShot(page, 'ask-box-list-en');
    expect(await box.locator('label').innerText()).toBe(`Ask the articles of ${topicName} a question`);
    // the counter shows near the limit; past it the question cannot be sent
    const field = page.getByTestId('ask-question');
    await field.fill('x'.repeat(450));
    expect(await page.getByTestId('ask-count').innerText()).toBe('50 characters left');
    await field.fill('x'.repeat(512));
    expect(await page.getByTestId('ask-count').innerText()).toBe('12 characters too many');
    expect(await page.getByTestId('ask-submit').isDisabled()).toBe(true);
    await field.fill('');
    expect(await page.getByTestId('ask-submit').isDisabled()).toBe(true);

    // a model that writes slowly: the first sentence shows before the answer is complete
    llm.chatCalls = [];
    llm.chunkDelayMs = 80;
    const base = passageModel();
    llm.chat = (call) => `${base(call)} ${base(call)} ${base(call)}`;
    try {
      await askFromList(page, TAX);
      const draft = main(page).getByTestId('ask-draft');
      await expect.poll(() => draft.count(), { timeout: 15_000 }).toBe(1);
      expect(await draft.innerText()).toContain('Tax Justice Network');
      expect(await main(page).getByTestId('ask-answer').count()).toBe(0);
      await env.screenshot(page, 'ask-streaming-en');
      await expect.poll(() => main(page).getByTestId('ask-answer').count(), { timeout: 20_000 }).toBe(1);
    } finally {
      llm.chunkDelayMs = 0;
      llm.chat = passageModel();
    }
    expect(llm.chatCalls).toHaveLength(1);
    expect(await main(page).getByTestId('ask-draft').count()).toBe(0);
    const text = await main(page).getByTestId('ask-text').innerText();
    expect(text).toContain('Tax Justice Network');
    expect(text).toMatch(/\[1\]/);
    expect(await main(page).getByTestId('ask-method').innerText()).toMatch(
      /^Written by the language model from \d+ passages found\.$/,
    );
    expect(await main(page).getByTestId('ask-grounding').innerText()).toMatch(
      /^100% of the cited sentences are supported by their source \(\d sentences? checked\)\.$/,
    );

    // the sources: our reader view, the original, the supporting quote
    const sources = main(page).getByTestId('ask-sources').locator('li');
    expect(await sources.count()).toBe(1);
    const source = sources.first();
    expect(await source.locator('a.ask-source-title').getAttribute('href')).toBe(
      `/articles/${ids.get('g06')}`,
    );
    const original = source.locator('a.ask-source-url');
    expect(await original.getAttribute('target')).toBe('_blank');
    expect(await original.getAttribute('href')).toMatch(/^https:\/\//);
    expect(await source.locator('blockquote').innerText()).toContain('Tax Justice Network');
    const title = await source.locator('a.ask-source-title').innerText();
    const cite = main(page).getByTestId('ask-text').locator('a.citation[data-citation="1"]').first();
    expect(await cite.getAttribute('aria-label')).toBe(`Source 1: ${title}`);
    // [1] takes the reader to its source without changing the address (which would ask again)
    const before = page.url();
    await cite.click();
    expect(await source.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(page.url()).toBe(before);

    // the question is in the reader's history
    const history = page.getByTestId('ask-history-list');
    await expect.poll(() => history.locator(':scope > li').count()).toBe(1);
    expect(await history.locator('.ask-history-q').innerText()).toBe(TAX);
    await env.screenshot(page, 'ask-answer-en');

    // every control is reached by Tab, with its focus ring
    const stops = await tabStops(page);
    const reached = new Map(stops.map((s) => [s.id, s.ring]));
    for (const id of ['ask-question', 'ask-submit', 'citation-1', 'a.ask-source-title', 'ask-clear'])
      expect(reached.get(id), id).toBe('solid');
    expect([...reached.keys()].some((k) => k.startsWith('a.ask-source-url'))).toBe(true);

    // to the reader view of the source and back: the same answer, not asked again
    await source.locator('a.ask-source-title').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/articles/${ids.get('g06')}`);
    await page.goBack();
    await expect.poll(() => main(page).getByTestId('ask-answer').count()).toBe(1);
    expect(llm.chatCalls).toHaveLength(1);
    await context.close();
  });

  it('stops the answer when the reader leaves the page', async () => {
    const { page, context } = await env.newContext({ as: 'user' });
    llm.chunkDelayMs = 150;
    llm.streamsCutShort = 0;
    llm.chat = () => 'Wikie is a killer whale that can imitate human speech [1]. '.repeat(20);
    try {
      await page.goto(`/ask?q=${encodeURIComponent('Which killer whale imitated human speech?')}`);
      await expect.poll(() => main(page).getByTestId('ask-draft').count(), { timeout: 15_000 }).toBe(1);
      await page.getByRole('link', { name: 'Back to the articles' }).click();
      await expect.poll(() => llm.streamsCutShort, { timeout: 10_000 }).toBe(1);
    } finally {
      llm.chunkDelayMs = 0;
      llm.chat = passageModel();
    }
    await context.close();
  });

  it('answers a zh-TW question in zh-TW, with its sources and quotes', async () => {
    const { page, context } = await env.newContext({ as: 'user' });
    await page.goto('/articles');
    await page.getByLabel('Language').selectOption('zh-TW');
    await page.goto(`/articles?topic=${topicId}`);
    // the label names the topic once the topics have loaded (the generic label until then)
    await expect
      .poll(() => page.getByTestId('ask-box').locator('label').innerText())
      .toBe(`向「${topicName}」的文章提問`);
    await viewShot(page, 'ask-box-list-zh-TW');
    await askFromList(page, WHALE_ZH);
    await expect.poll(() => main(page).getByTestId('ask-answer').count(), { timeout: 20_000 }).toBe(1);
    expect(await main(page).getByTestId('ask-text').innerText()).toContain('虎鯨');
    expect(await main(page).getByTestId('ask-text').getAttribute('lang')).toBe('zh-TW');
    expect(await main(page).getByTestId('ask-method').innerText()).toMatch(
      /^由語言模型根據找到的 \d+ 個段落撰寫。$/,
    );
    expect(await main(page).getByTestId('ask-grounding').innerText()).toMatch(
      /^引用句中有 100% 有來源支持（共查核 \d 句）。$/,
    );
    const source = main(page).getByTestId('ask-sources').locator('li').first();
    expect(await source.locator('a.ask-source-title').getAttribute('href')).toBe(
      `/articles/${ids.get('g48')}`,
    );
    expect((await source.locator('blockquote').innerText()).length).toBeGreaterThan(10);
    expect(await page.getByRole('heading', { name: '來源' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: '你的提問' }).count()).toBe(1);
    await env.screenshot(page, 'ask-answer-zh-TW');
    await context.close();
  });

  it('shows an abstention as such, not as an error, with a way to ask in all topics', async () => {
    const { page, context } = await env.newContext({ as: 'user' });
    // the first read of the history is answered (empty) before the answer is kept, and arrives
    // after it: the history must still show the question
    let firstRead = true;
    await page.route('**/api/proxy/ask/history*', async (route) => {
      if (!firstRead || route.request().method() !== 'GET') return route.continue();
      firstRead = false;
      const response = await route.fetch();
      await expect.poll(() => main(page).getByTestId('ask-abstained').count(), { timeout: 20_000 }).toBe(1);
      await route.fulfill({ response });
    });
    await askFromList(page, UNANSWERED);
    const abstained = main(page).getByTestId('ask-abstained');
    await expect.poll(() => abstained.count(), { timeout: 20_000 }).toBe(1);
    const text = await abstained.innerText();
    expect(text).toContain('No answer in the articles');
    expect(text).toContain('The articles found do not answer this question.');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await main(page).getByTestId('ask-all-topics').getAttribute('href')).toBe(
      `/ask?q=${encodeURIComponent(UNANSWERED).replace(/%20/g, '+')}`,
    );
    expect(await page.getByTestId('ask-history-list').locator('.ask-history-none').innerText()).toContain(
      'No answer',
    );
    await env.screenshot(page, 'ask-abstained-en');
    await context.close();
  });

  it('shows refused questions and the limit with the shared error messages', async () => {
    const { page, context, user } = await env.newContext({ as: 'user' });
    // a question too long in the address (the box would not send it)
    await page.goto(`/ask?q=${'x'.repeat(501)}`);
    const error = page.getByTestId('ask-error');
    await expect.poll(() => error.count()).toBe(1);
    expect(await error.getAttribute('data-error-code')).toBe('question_too_long');
    expect(await error.locator('p').innerText()).toBe('Keep the question under 500 characters.');
    // past the per-user limit: 429 with when to ask again
    const headers = { authorization: `Bearer ${user!.token}`, 'content-type': 'application/json' };
    for (let i = 0; i < ASK_LIMIT; i++)
      await env.api.app.inject({ method: 'POST', url: '/ask', headers, payload: { question: UNANSWERED } });
    await page.goto(`/ask?q=${encodeURIComponent(TAX)}`);
    // each look is immediate (getAttribute on a missing element waits the page's whole 10 s, which
    // under load was the poll's whole budget), and the page gets as long as the others to answer
    await expect
      .poll(async () => ((await error.count()) ? await error.getAttribute('data-error-code') : null), {
        timeout: 30_000,
      })
      .toBe('rate_limited');
    expect(await error.locator('p').innerText()).toMatch(
      /^Too many requests\. Wait a moment and try again\. You can ask again in \d+ seconds?\.$/,
    );
    await page.getByLabel('Language').selectOption('zh-TW');
    expect(await error.locator('p').innerText()).toMatch(/^請求過於頻繁。請稍候再試。\d+ 秒後可再次提問。$/);
    await env.screenshot(page, 'ask-rate-limited-zh-TW');
    await context.close();
  });

  it('asks guests to sign in instead of showing the box; the answer page sends them to sign in', async () => {
    const { page, context } = await env.newContext();
    await page.goto(`/articles?topic=${topicId}`);
    await expect.poll(() => page.getByTestId('ask-sign-in').count()).toBe(1);
    expect(await page.getByTestId('ask-box').count()).toBe(0);
    await viewShot(page, 'ask-sign-in-en');
    expect(await page.getByTestId('ask-sign-in').innerText()).toContain(
      'Sign in to ask the articles a question.',
    );
    await page.goto(`/ask?q=${encodeURIComponent(TAX)}`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe(`/ask?q=${encodeURIComponent(TAX)}`);
    await context.close();
  });

  it('clears the history through the confirmation dialog, on a phone (en, zh-TW)', async () => {
    const { page, context, user } = await env.newContext({ as: 'user', viewport: VIEWPORTS.phone });
    await page.goto(`/articles?topic=${topicId}`);
    await expect.poll(() => page.getByTestId('article-list').count()).toBe(1);
    expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
    await viewShot(page, 'ask-box-list-phone-en');
    await askFromList(page, TAX);
    await expect.poll(() => main(page).getByTestId('ask-answer').count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('ask-history-list').count()).toBe(1);
    expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
    await env.screenshot(page, 'ask-answer-phone-en');
    const field = page.getByTestId('ask-question');
    await field.fill(UNANSWERED);
    await page.getByTestId('ask-submit').click();
    await expect.poll(() => main(page).getByTestId('ask-abstained').count(), { timeout: 20_000 }).toBe(1);
    const items = page.getByTestId('ask-history-list').locator(':scope > li');
    await expect.poll(() => items.count()).toBe(2);
    // a past answer opens in place, with its sources
    await items.nth(1).locator('summary').click();
    expect(await items.nth(1).locator('.ask-sources li').count()).toBe(1);
    expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);

    await page.evaluate(() => localStorage.setItem('locale', 'zh-TW'));
    // a reload asks the question of the address again: it is kept once more
    await page.reload();
    await expect.poll(() => main(page).getByTestId('ask-abstained').count(), { timeout: 20_000 }).toBe(1);
    await expect
      .poll(() => page.getByTestId('ask-history-list').locator(':scope > li').count(), { timeout: 20_000 })
      .toBe(3);
    expect(await noHorizontalScroll(page)).toBeLessThanOrEqual(0);
    await env.screenshot(page, 'ask-history-phone-zh-TW');

    await page.getByTestId('ask-clear').click();
    const dialog = page.getByTestId('ask-clear-dialog');
    expect(await dialog.locator('h2').innerText()).toBe('要清除你的提問嗎？');
    expect(await dialog.locator('.dialog-body').innerText()).toBe(
      '這會刪除為你保留的 3 個問題及其答案，且無法復原。',
    );
    await env.screenshot(page, 'ask-clear-phone-zh-TW');
    await dialog.getByTestId('confirm').click();
    await expect.poll(() => page.getByTestId('ask-cleared').count()).toBe(1);
    expect(await page.getByTestId('ask-cleared').innerText()).toBe('已清除你的提問紀錄。');
    expect(await page.getByTestId('ask-cleared').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.getByTestId('ask-history-list').count()).toBe(0);
    const stored = await env.api.app.inject({
      method: 'GET',
      url: '/ask/history',
      headers: { authorization: `Bearer ${user!.token}` },
    });
    expect(stored.json<{ total: number }>().total).toBe(0);
    await context.close();
  });

  it('quotes the articles when no language model is configured, and says so', async () => {
    const removed = await env.api.app.inject({
      method: 'DELETE',
      url: `/admin/providers/${providerId}`,
      headers: admin.headers,
    });
    expect(removed.statusCode).toBe(204);
    const { page, context } = await env.newContext({ as: 'user' });
    llm.chatCalls = [];
    await askFromList(page, RULE_OF_LAW);
    await expect.poll(() => main(page).getByTestId('ask-answer').count(), { timeout: 20_000 }).toBe(1);
    expect(await main(page).getByTestId('ask-answer').getAttribute('data-method')).toBe('extractive');
    expect(await main(page).getByTestId('ask-method').innerText()).toBe(
      'Quotes from the articles: no language model is configured.',
    );
    expect(await main(page).getByTestId('ask-text').innerText()).toContain('113');
    const source = main(page).getByTestId('ask-sources').locator('li').first();
    expect(await source.locator('a.ask-source-title').getAttribute('href')).toBe(
      `/articles/${ids.get('g38')}`,
    );
    expect(llm.chatCalls).toHaveLength(0);
    await env.screenshot(page, 'ask-extractive-en');
    await page.getByLabel('Language').selectOption('zh-TW');
    expect(await main(page).getByTestId('ask-method').innerText()).toBe('摘錄自文章原文：尚未設定語言模型。');
    await env.screenshot(page, 'ask-extractive-zh-TW');
    await context.close();
  });
});
