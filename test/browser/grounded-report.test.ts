import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { insertArticle, insertProvider, insertTopic } from '../helpers/report-factories.js';
import { weeklyJob } from '../helpers/runs.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import { PAPERS, quantumModel } from '../reports/grounding-fixtures.js';
import { VIEWPORTS, startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

// A weekly report written by a peer model that gets citations wrong (an invented claim, a wrong
// number, a number with no source, a changed figure, a reversed claim), grounded by the same peer
// as judge and reviser: the page shows how grounded it is, the passage behind [2] on focus, and to
// admins what was removed or rewritten and why, in en and zh-TW.

const WEEK = '2026-11-09';
const inWeek = (day: number) => new Date(Date.UTC(2026, 10, 9 + day, 12));
const SQUEEZED = PAPERS[2]!.summary;

let env: BrowserEnv;
let llm: OpenAiPeer;
let topicId = '';

beforeAll(async () => {
  llm = await new OpenAiPeer(quantumModel()).start();
  env = await startBrowserEnv();
  const db = env.api.container.database.db;
  await insertProvider(db, { baseUrl: llm.baseUrl });
  const topic = await insertTopic(db, 'Quantum sensing');
  topicId = topic.id;
  for (const [i, p] of PAPERS.entries()) await insertArticle(db, topic.id, { ...p, publishedAt: inWeek(i) });
  const admin = await env.api.login('admin');
  const run = await weeklyJob(env.api.app, env.api.container.batch, admin.headers, {
    topic_id: topic.id,
    week_start: WEEK,
  });
  expect(run.json().topics[0]).toMatchObject({ status: 'created' });
});
afterAll(async () => {
  await env?.close();
  await llm?.stop();
});

const toZh = (page: Page) => page.getByLabel('Language').selectOption('zh-TW');

describe.sequential('a report grounded by the model, in Chromium', () => {
  it('shows its score and the passage behind [2] on focus; admins see what was removed and why (en, zh-TW)', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto(`/reports?topic=${topicId}`);
    const report = page.locator('article.report');
    await expect.poll(() => report.count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByTestId('report-grounding').innerText()).toBe(
      'Each cited sentence checked against its source by the language model: 90% supported (5 cited sentences). Hover or focus a [N] to see the passage.',
    );
    const text = await report.locator('.markdown').innerText();
    expect(text).toContain('Atom interferometers measured gravity in the field for 14 days [3].');
    for (const gone of ['RSA', '2030', '30 days', 'no longer']) expect(text).not.toContain(gone);

    // [2] is the squeezed-light paper (the draft cited it as [2] by mistake, then [3])
    const second = report.locator('.markdown a.citation[data-citation="2"]').first();
    expect(await second.getAttribute('data-quote')).toBe(SQUEEZED);
    expect(await second.getAttribute('aria-label')).toBe(`[2]: “${SQUEEZED}”`);
    await second.focus();
    // the passage is drawn beside the focused marker
    const after = await second.evaluate((el) => getComputedStyle(el, '::after').content);
    expect(after).toContain('Injecting squeezed light');
    await env.screenshot(page, 'grounded-report-quote-en');

    const removed = page.getByTestId('report-removed');
    await removed.locator('summary').click();
    const removedText = await removed.innerText();
    expect(removedText).toContain('2 sentences removed while checking (shown to admins)');
    expect(removedText).toContain('Quantum computers broke RSA encryption this week [2].');
    expect(removedText).toContain('no source says this');
    expect(removedText).toContain('Quantum sensors will replace GPS by 2030 [7].');
    expect(removedText).toContain('cites a source the report does not have');
    const revised = page.getByTestId('report-revised');
    await revised.locator('summary').click();
    const revisedText = await revised.innerText();
    expect(revisedText).toContain('2 sentences rewritten to say what their sources say (shown to admins)');
    expect(revisedText).toContain(
      'Atom interferometers measured gravity in the field for 14 days [3]. first written as “Atom interferometers measured gravity in the field for 30 days [2].”',
    );
    await env.screenshot(page, 'grounded-report-admin-en');

    await toZh(page);
    await expect
      .poll(() => page.getByTestId('report-grounding').innerText())
      .toBe(
        '每句引用皆已由語言模型依來源查核：90% 有來源支持（共 5 句引用）。將游標移到或聚焦於 [N] 即可查看原文段落。',
      );
    expect(await report.locator('h2').innerText()).toBe('本週量子感測');
    expect(await report.locator('.markdown').innerText()).toContain(
      '原子干涉儀在野外連續 14 天測量重力 [3]。',
    );
    // the report was fetched again in zh-TW: its lists are closed again
    for (const d of [removed, revised])
      if ((await d.getAttribute('open')) === null) await d.locator('summary').click();
    expect(await removed.innerText()).toContain('沒有任何來源提到這一點');
    expect(await revised.innerText()).toContain('原句為「Atom interferometers measured gravity');
    const zhSecond = report.locator('.markdown a.citation[data-citation="2"]').first();
    expect(await zhSecond.getAttribute('data-quote')).toBe(SQUEEZED);
    await zhSecond.focus();
    await env.screenshot(page, 'grounded-report-quote-zh-TW');
    await context.close();
  });

  it('shows readers the score and quotes but not what was removed, also on a phone', async () => {
    const { page, context } = await env.newContext({ viewport: VIEWPORTS.phone });
    await page.goto(`/reports?topic=${topicId}`);
    await expect.poll(() => page.getByTestId('report-grounding').count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByTestId('report-removed').count()).toBe(0);
    expect(await page.getByTestId('report-revised').count()).toBe(0);
    await page.locator('.markdown a.citation[data-citation="2"]').first().focus();
    // the passage stays on the screen
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    await env.screenshot(page, 'grounded-report-phone-en');
    expect(overflow).toBeLessThanOrEqual(0);
    // the language picker sits in the menu on a phone: the stored choice, as the picker keeps it
    await page.evaluate(() => localStorage.setItem('locale', 'zh-TW'));
    await page.reload();
    await expect.poll(() => page.getByTestId('report-grounding').innerText()).toContain('90% 有來源支持');
    await page.locator('.markdown a.citation[data-citation="2"]').first().focus();
    await env.screenshot(page, 'grounded-report-phone-zh-TW');
    await context.close();
  });
});
