import { mkdirSync, statSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, hasChromium } from '../helpers/chromium.js';
import { REPORT_SITE, startReportEnv, type ReportEnv } from '../helpers/report-env.js';
import { insertArticle, insertProvider, insertSubscriber, insertTopic } from '../helpers/report-factories.js';

/** The weekly e-mail as received by the SMTP peer, rendered in headless Chromium. */
describe.skipIf(!hasChromium())('weekly report e-mail in a browser', () => {
  let env: ReportEnv;
  let browser: Browser;
  const mails: Record<string, { html: string; subject: string }> = {};
  let coverUrl = '';

  beforeAll(async () => {
    env = await startReportEnv('pglite');
    const db = env.t.container.database.db;
    // no image model: the cover is the locally drawn one
    await insertProvider(db, { baseUrl: env.llm.baseUrl });
    const topic = await insertTopic(db, 'Quantum Computing');
    for (const [i, tag] of ['qubits', 'error-correction', 'photonics'].entries())
      await insertArticle(db, topic.id, {
        title: `Result ${i + 1}`,
        citations: 10 - i,
        publishedAt: new Date(Date.UTC(2026, 10, 10 + i)),
        tags: [tag, 'quantum'],
      });
    const en = await insertSubscriber(db, topic.id, { name: 'Ada' });
    const zh = await insertSubscriber(db, topic.id, { name: '小明', settings: { locale: 'zh-TW' } });
    const res = await env.runJob({ topic_id: topic.id, week_start: '2026-11-09' });
    expect(res.json().topics[0].deliveries.email.sent).toBe(2);
    for (const m of env.smtp.messages)
      mails[m.to[0] === en.email ? 'en' : m.to[0] === zh.email ? 'zh-TW' : '?'] = m;
    const latest = await env.t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}` });
    coverUrl = latest.json().cover_image_url;
    browser = await chromium.launch({
      executablePath: CHROMIUM_EXECUTABLE,
      args: CHROMIUM_ARGS,
    });
    mkdirSync('test-results', { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  it.each([
    ['en', 'View Full Report', 'Weekly digest'],
    ['zh-TW', '查看完整報告', '每週摘要'],
  ])('shows the cover, the title box and the button (%s)', async (locale, cta, title) => {
    const page = await browser.newPage({ viewport: { width: 760, height: 1100 } });
    // the cover URL is on PUBLIC_BASE_URL: answer it from the api role's /media route
    const served: string[] = [];
    await page.route(`${REPORT_SITE}/**`, async (route) => {
      const url = new URL(route.request().url());
      const res = await env.t.app.inject({ url: url.pathname });
      served.push(`${res.statusCode} ${url.pathname}`);
      await route.fulfill({
        status: res.statusCode,
        headers: { 'content-type': String(res.headers['content-type'] ?? 'application/octet-stream') },
        body: res.rawPayload,
      });
    });
    await page.setContent(mails[locale]!.html, { waitUntil: 'networkidle' });

    const dom = await page.evaluate(async (cover) => {
      const header = document.querySelector<HTMLElement>('.report-header')!;
      const box = document.querySelector<HTMLElement>('.report-box')!;
      const cta = document.querySelector<HTMLAnchorElement>('.report-cta')!;
      const img = new Image();
      img.src = cover;
      await img.decode();
      const rect = (e: Element) => e.getBoundingClientRect().toJSON() as DOMRect;
      return {
        background: getComputedStyle(header).backgroundImage,
        coverSize: [img.naturalWidth, img.naturalHeight],
        header: rect(header),
        box: rect(box),
        boxBackground: getComputedStyle(box).backgroundColor,
        boxInHeader: header.contains(box),
        title: document.querySelector('.report-title')!.textContent,
        summary: document.querySelector('.report-summary')!.textContent,
        cta: { text: cta.textContent, href: cta.getAttribute('href'), rect: rect(cta) },
        ctaBackground: getComputedStyle(cta.parentElement!).backgroundColor,
        width: document.documentElement.clientWidth,
      };
    }, coverUrl);

    expect(served).toContain(`200 ${new URL(coverUrl).pathname}`);
    expect(dom.background).toContain(coverUrl);
    expect(dom.coverSize).toEqual([1600, 900]);
    expect(dom.boxInHeader).toBe(true);
    expect(dom.boxBackground).toBe('rgba(255, 255, 255, 0.88)');
    // the white box sits inside the cover, with cover visible around it
    expect(dom.box.left).toBeGreaterThan(dom.header.left);
    expect(dom.box.right).toBeLessThan(dom.header.right);
    expect(dom.box.top).toBeGreaterThan(dom.header.top);
    expect(dom.title).toBe(title);
    expect(dom.summary).toMatch(/\[1\]/);
    expect(dom.cta.text).toBe(cta);
    expect(dom.cta.href).toBe(REPORT_SITE);
    expect(dom.cta.rect.width).toBeGreaterThan(80);
    expect(dom.cta.rect.height).toBeGreaterThan(30);
    expect(dom.cta.rect.right).toBeLessThanOrEqual(dom.width);
    expect(dom.ctaBackground).toBe('rgb(29, 78, 216)');

    const file = `test-results/weekly-report-email-${locale}.png`;
    await page.screenshot({ path: file, fullPage: true });
    expect(statSync(file).size).toBeGreaterThan(10_000);
    await page.close();
  });
});
