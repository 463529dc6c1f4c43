import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { previousWeekStart } from '../../src/domain/reports.js';
import { Scheduler } from '../../src/jobs/scheduler.js';
import { CITATION_ARRIVALS_JOB } from '../../src/application/metrics/metric-refresh.service.js';
import { makeArticle, makeSource, makeTopic } from '../helpers/article-factories.js';
import { HttpPeer, sendJson } from '../peers/http-peer.js';
import { VIEWPORTS, startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

// Day one on a fresh DATA_DIR without any language-model provider: a feed of four papers (three
// with a DOI) is fetched once; the citation lookup on arrival runs through its real pg-boss schedule,
// in the tick the run asks for as soon as it stores the papers, against a Semantic Scholar peer, so
// sorting by citations orders the papers within two minutes of that fetch (seconds, in practice);
// then the weekly report is an extractive digest citing those papers.

const PAPERS = [
  {
    title: 'A field guide to quantum sensing in biology',
    summary:
      'Quantum sensors are moving out of the physics lab. This review surveys how nitrogen-vacancy ' +
      'centres map magnetic fields inside living cells at nanometre resolution. We close with open problems.',
    doi: null,
    citations: null,
  },
  {
    title: 'Squeezed light for gravitational-wave detectors',
    summary:
      'Detectors are limited by shot noise at high frequencies. Injecting squeezed light reduced the ' +
      'shot noise of the gravitational-wave detector by 6 dB across its band. The method is now routine.',
    doi: '10.1000/squeezed',
    citations: 7,
  },
  {
    title: 'Atom interferometers measure gravity in the field',
    summary:
      'Portable instruments are needed for geodesy. Our atom interferometers measured gravity in the ' +
      'field for 14 days with a stability of 10 nGal. Applications include volcano monitoring.',
    doi: '10.1000/atoms',
    citations: 45,
  },
  {
    title: 'Diamond magnetometry at room temperature',
    summary:
      'Sensitive magnetometers usually need cryogenics. Diamond magnetometry with an ensemble of ' +
      'colour centres reaches 3 pT sensitivity at room temperature. This opens medical uses.',
    doi: '10.1000/diamond',
    citations: 120,
  },
];
const BEST = ['Diamond magnetometry', 'Atom interferometers', 'Squeezed light', 'A field guide'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** published in the middle of the last full week: the week the weekly run writes about */
const published = new Date(
  new Date(`${previousWeekStart(new Date())}T00:00:00Z`).getTime() + 2 * 86_400_000 + 9 * 3_600_000,
);

let env: BrowserEnv;
let scheduler: Scheduler | undefined;
const feed = new HttpPeer((req, res) => {
  if (req.path === '/papers.xml') {
    const items = PAPERS.map(
      (p, i) => `<item>
      <title>${esc(p.title)}</title>
      <link>${feed.url}/papers/${i}</link>
      <guid>${feed.url}/papers/${i}</guid>
      <pubDate>${new Date(published.getTime() + i * 60_000).toUTCString()}</pubDate>
      <description>${esc(p.summary)}</description>
      ${p.doi ? `<prism:doi>${p.doi}</prism:doi>` : ''}
    </item>`,
    ).join('\n');
    res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/">
  <channel><title>Sensing Letters</title><link>${feed.url}/</link><description>Papers</description>
  ${items}
  </channel>
</rss>`);
    return;
  }
  const i = Number(/^\/papers\/(\d)$/.exec(req.path)?.[1] ?? -1);
  if (PAPERS[i])
    return void res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<html><body><article><h1>${esc(PAPERS[i].title)}</h1><p>${esc(PAPERS[i].summary)}</p></article></body></html>`,
      );
  res.writeHead(404).end();
});
const counts = new Map(PAPERS.filter((p) => p.doi).map((p) => [`DOI:${p.doi}`, p.citations]));
const s2 = new HttpPeer((req, res) => {
  if (req.method === 'POST' && req.path === '/graph/v1/paper/batch') {
    const ids = (req.json() as { ids: string[] }).ids;
    return sendJson(
      res,
      200,
      ids.map((id) => (counts.has(id) ? { paperId: id, citationCount: counts.get(id) } : null)),
    );
  }
  const id = decodeURIComponent(req.path.replace('/graph/v1/paper/', ''));
  if (!counts.has(id)) return sendJson(res, 404, {});
  sendJson(res, 200, { paperId: 'p', citationCount: counts.get(id) });
});
const notFound = new HttpPeer((_req, res) => sendJson(res, 404, {}));

const toZh = (page: Page) => page.getByLabel('Language').selectOption('zh-TW');
const cardTitles = (page: Page) => page.getByTestId('article-link').allInnerTexts();

beforeAll(async () => {
  await Promise.all([feed.start(), s2.start(), notFound.start()]);
  env = await startBrowserEnv({
    env: {
      SEMANTIC_SCHOLAR_API_URL: s2.url,
      OPENALEX_API_URL: notFound.url,
      CROSSREF_API_URL: notFound.url,
      CITATION_REQUESTS_PER_SECOND: '1000',
      // as `npm start` runs: the weekly report on its default schedule
      SCHEDULER_ENABLED: 'true',
    },
  });
});
afterAll(async () => {
  await scheduler?.stop();
  await env?.close();
  await Promise.all([feed.stop(), s2.stop(), notFound.stop()]);
});

describe.sequential('day one without a language model, in Chromium', () => {
  let topicId = '';

  it('sorting by citations orders the papers within two minutes of their first fetch (en, zh-TW)', async () => {
    const c = env.api.container;
    // the worker's schedule of the lookup on arrival, as `npm start` runs it (pg-boss cron), but
    // ticking once a year: the lookup comes from the tick the run asks for when it stores the papers
    // (within seconds), not from a minute tick that could fall soon after the fetch by chance
    scheduler = new Scheduler(
      c.jobs.filter((j) => j.name === CITATION_ARRIVALS_JOB).map((j) => ({ ...j, cron: '0 0 1 1 *' })),
      c.jobLock,
      c.queue,
      pino({ level: 'silent' }),
    );
    await scheduler.start();
    const topic = await makeTopic(c.database.db, { name: 'Quantum Sensing', slug: `qs-${Date.now()}` });
    topicId = topic.id;
    const source = await makeSource(c.database.db, {
      topicId,
      name: 'Sensing Letters',
      url: `${feed.url}/papers.xml`,
    });
    const admin = await env.api.login('admin');
    const fetched = Date.now();
    const run = await env.api.app.inject({
      method: 'POST',
      url: `/admin/sources/${source.id}/fetch`,
      headers: admin.headers,
    });
    expect(run.statusCode, run.body).toBe(202);
    // the list shows what is stored when it opens (it follows the lookups in, not the run): opened
    // before the run stored the papers, under a loaded machine, it stayed empty
    await expect
      .poll(
        async () =>
          (await env.api.app.inject({ url: `/articles?topic_id=${topicId}` })).json<{ items: unknown[] }>()
            .items.length,
        { timeout: 60_000 },
      )
      .toBe(4);

    const { page, context } = await env.newContext();
    await page.goto(`/articles?topic=${topicId}&sort=citation_count&order=desc`);
    await expect.poll(() => page.getByTestId('article-link').count(), { timeout: 60_000 }).toBe(4);
    // the page follows the lookups in by itself (no reload): most cited first, the paper without
    // a DOI last, the first card with its count. The order alone can match before any count is in
    // (the order without values may happen to be the same), so the count is waited for with it
    const firstCard = page.locator('article', { has: page.getByTestId('article-link') }).first();
    const firstCount = firstCard.locator('[data-metric="citation_count"]');
    await expect
      .poll(
        async () => ({
          order: (await cardTitles(page)).map((t) => BEST.find((b) => t.startsWith(b))),
          first: (await firstCount.count()) ? await firstCount.innerText() : '',
        }),
        { timeout: 120_000 - (Date.now() - fetched), interval: 1000 },
      )
      .toEqual({ order: BEST, first: expect.stringContaining('120') });
    const elapsed = Date.now() - fetched;
    expect(elapsed).toBeLessThan(120_000);
    // three of the four have a value: the note says so
    const note = page.getByTestId('metric-coverage');
    await expect.poll(() => note.innerText()).toContain('75% of the articles have a value (3 of 4)');
    await env.screenshot(page, 'day-one-sorted-by-citations-en');
    await toZh(page);
    await expect.poll(() => note.innerText()).toContain('75% 的文章有此數值（4 篇中的 3 篇）');
    await env.screenshot(page, 'day-one-sorted-by-citations-zh-TW');
    await context.close();
  }, 180_000);

  it('the weekly report is an extractive digest citing the real papers, labelled in en and zh-TW', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    // the page says what the server's schedule says (WEEKLY_REPORT_CRON's next tick)
    const schedule = (await env.api.app.inject({ url: '/weekly-reports/schedule' })).json<{
      next_due_at: string;
      cron: string;
    }>();
    expect(schedule.cron).toBe('0 8 * * 1');
    const due = new Date(schedule.next_due_at);
    const weekday = due.toLocaleDateString('en-US', { weekday: 'long' });
    const year = String(due.getFullYear());
    // before the run: the papers are last week's, so the page promises nothing for the next one...
    await page.goto(`/reports?topic=${topicId}`);
    await expect
      .poll(() => page.getByTestId('no-report-week').innerText())
      .toMatch(/^No article of this week yet: the next report \(.+\) is written only if/);
    expect(await page.getByTestId('no-report').getAttribute('data-due')).toBe(schedule.next_due_at);
    const week = await page.getByTestId('no-report-week').innerText();
    expect(week).toContain(weekday);
    expect(week).toContain(year);
    // ...while a topic with an article of this week is promised its report
    const db = env.api.container.database.db;
    const busy = await makeTopic(db, { name: 'Busy topic', slug: `busy-${Date.now()}` });
    await makeArticle(db, { topicId: busy.id, publishedAt: new Date() });
    await page.goto(`/reports?topic=${busy.id}`);
    await expect
      .poll(() => page.getByTestId('no-report-schedule').innerText())
      .toMatch(new RegExp(`^The next report is due ${weekday}, .*${year}.*\\.$`));
    expect(await page.getByTestId('no-report').getAttribute('data-due')).toBe(schedule.next_due_at);
    expect(await page.getByTestId('no-report-week').count()).toBe(0);

    await page.goto('/admin/jobs');
    await page.getByTestId('job-reports').getByRole('button', { name: 'Start' }).click();
    const row = page.locator('[data-testid="run-row"][data-kind="reports"]').first();
    await expect.poll(() => row.innerText(), { timeout: 60_000 }).toMatch(/Completed/);
    expect(await row.innerText()).not.toMatch(/problems|Failed/);

    await page.goto(`/reports?topic=${topicId}`);
    const report = page.locator('article.report');
    await expect.poll(() => report.count(), { timeout: 30_000 }).toBe(1);
    expect(await report.locator('h2').innerText()).toBe("Quantum Sensing: the week's 4 top articles");
    // the local cover, served by the web role (PUBLIC_BASE_URL is another host in this test)
    const cover = new URL((await report.locator('figure.cover img').getAttribute('src'))!);
    const png = await fetch(`${env.webUrl}${cover.pathname}`);
    expect([png.status, png.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(await page.getByTestId('report-method').innerText()).toBe(
      'Written without a language model: each sentence is quoted from the article it cites.',
    );
    // the sources are the fetched papers, in the topic's ranking; each line quotes its own paper
    const sources = await report.locator('ol.sources li a:not(.source-url)').allInnerTexts();
    expect(sources.map((t) => BEST.find((b) => t.startsWith(b)))).toEqual(BEST);
    const text = await report.innerText();
    expect(text).toContain('reaches 3 pT sensitivity at room temperature');
    expect(text).toContain('measured gravity in the field for 14 days');
    // the check of its citations, and the passage behind [2] on keyboard focus
    expect(await page.getByTestId('report-grounding').innerText()).toContain(
      'Citations checked against their sources: 100% supported (4 cited sentences).',
    );
    const second = report.locator('a.citation[data-citation="2"]').first();
    expect(await second.getAttribute('data-quote')).toBe(
      'Our atom interferometers measured gravity in the field for 14 days with a stability of 10 nGal.',
    );
    await second.focus();
    await env.screenshot(page, 'day-one-report-quote-en');
    // [1] leads to the first source, the most cited paper, whose link opens the article itself
    const marker = report.locator('a', { hasText: '[1]' }).first();
    expect(await marker.getAttribute('href')).toMatch(/#source-1$/);
    await report.locator('#source-1 a').first().click();
    await expect.poll(() => page.url()).toMatch(/\/articles\/[0-9a-f-]{36}/);
    await expect.poll(() => page.locator('h1').first().innerText()).toContain('Diamond magnetometry');
    await page.goBack();
    await expect.poll(() => report.count()).toBe(1);
    await env.screenshot(page, 'day-one-report-en');

    await toZh(page);
    await expect
      .poll(() => page.getByTestId('report-method').innerText())
      .toBe('本報告未使用語言模型撰寫：每一句皆摘自其所引用的文章。');
    await expect.poll(() => report.locator('h2').innerText()).toBe('Quantum Sensing：本週 4 篇重點文章');
    expect(await report.innerText()).toContain('本週 Quantum Sensing 最重要的 4 篇文章');
    expect(await page.getByTestId('report-grounding').innerText()).toContain(
      '100% 有來源支持（共 4 句引用）',
    );
    await report.locator('a.citation[data-citation="2"]').first().focus();
    await env.screenshot(page, 'day-one-report-zh-TW');
    await context.close();

    const phone = await env.newContext({ viewport: VIEWPORTS.phone });
    await phone.page.goto(`/reports?topic=${topicId}`);
    await expect.poll(() => phone.page.getByTestId('report-method').count(), { timeout: 30_000 }).toBe(1);
    const overflow = await phone.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await env.screenshot(phone.page, 'day-one-report-phone-en');
    await phone.context.close();
  });
});
