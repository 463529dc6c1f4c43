import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { llmUsage, scraperRuns } from '../../src/infrastructure/db/schema/index.js';
import { join } from 'node:path';
import { SCREENSHOTS, startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';

/**
 * What the language model costs, as an admin reads it: the Service tab's model usage (totals, per
 * purpose over the window and per day, readable purpose names, unknown ones as sent, the locale's
 * digit grouping) and a run's model calls in the Jobs page; en and zh-TW, desktop and phone.
 */
const zh = (context: BrowserContext) => context.addInitScript(() => localStorage.setItem('locale', 'zh-TW'));
const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
/** the column names a phone shows before each number of a stacked row (CSS, not in innerText) */
const stackedLabels = (page: Page, rows: string) =>
  page.locator(`${rows} td`).evaluateAll((tds) =>
    tds
      .map((td) => getComputedStyle(td, '::before').content)
      .filter((c) => c !== 'none')
      .map((c) => c.replace(/^"|"$/g, '')),
  );
/** the cells of each row of a group of the usage table (a day, or `window`) */
const groupRows = (page: Page, day: string) =>
  page
    .locator(`[data-panel="svc-llm"] tbody[data-day="${day}"] tr`)
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td as HTMLElement).innerText.trim())),
    );

describe.sequential('model usage on the Service tab and in a run’s detail', () => {
  let env: BrowserEnv;
  let runId: string;
  let quietRunId: string;
  const today = utcDay(0);
  const earlier = utcDay(2);

  beforeAll(async () => {
    env = await startBrowserEnv();
  });
  afterAll(() => env?.close());

  async function seed() {
    const db = env.api.container.database.db;
    const runs = await db
      .insert(scraperRuns)
      .values([
        { correlationId: 'usage-run', status: 'completed' as const, finishedAt: new Date() },
        { correlationId: 'quiet-run', status: 'completed' as const, finishedAt: new Date() },
      ])
      .returning({ id: scraperRuns.id });
    runId = runs[0]!.id;
    quietRunId = runs[1]!.id;
    const other = randomUUID();
    const u = (day: string, purpose: string, run: string, calls: number, p: number, c: number) => ({
      day,
      purpose,
      provider: 'openai',
      runId: run,
      calls,
      promptTokens: p,
      completionTokens: c,
    });
    await db
      .insert(llmUsage)
      .values([
        u(today, 'analysis', runId, 12, 1_234_567, 345_678),
        u(today, 'translation', runId, 3, 4_500, 1_200),
        u(earlier, 'analysis', other, 5, 20_000, 6_000),
        u(earlier, 'report.grounding.judge', other, 2, 800, 100),
        u(earlier, 'summarize.v2', other, 1, 10, 2),
      ]);
  }

  it('says so when no model was called in the window', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/monitoring?tab=service&interval=0');
    const panel = page.locator('[data-panel="svc-llm"]');
    await expect.poll(() => panel.count(), { timeout: 10_000 }).toBe(1);
    expect(await panel.locator('h3').innerText()).toBe('Model usage');
    expect(await panel.innerText()).toContain('No model calls in this window.');
    expect(await panel.locator('table').count()).toBe(0);
    await context.close();
  });

  it('shows the window’s totals, per purpose and per day, with readable purposes and grouped digits (en, zh-TW, phone)', async () => {
    await seed();
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/monitoring?tab=service&interval=0');
    const panel = page.locator('[data-panel="svc-llm"]');
    await expect.poll(() => panel.locator('table').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId('llm-totals').innerText()).toMatch(
      /Model calls\s+23\s+Input tokens\s+1,259,877\s+Output tokens\s+352,980/,
    );
    // the whole window per purpose, the most tokens first; an unknown purpose as it was sent
    expect(await groupRows(page, 'window')).toEqual([
      ['Article analysis', '17', '1,254,567', '351,678'],
      ['Translation', '3', '4,500', '1,200'],
      ['Report check', '2', '800', '100'],
      ['summarize.v2', '1', '10', '2'],
    ]);
    expect(await groupRows(page, today)).toEqual([
      ['Article analysis', '12', '1,234,567', '345,678'],
      ['Translation', '3', '4,500', '1,200'],
    ]);
    expect(await groupRows(page, earlier)).toEqual([
      ['Article analysis', '5', '20,000', '6,000'],
      ['Report check', '2', '800', '100'],
      ['summarize.v2', '1', '10', '2'],
    ]);
    // the groups in order: the window, then the newest day first
    expect(
      await panel.locator('tbody').evaluateAll((els) => els.map((e) => e.getAttribute('data-day'))),
    ).toEqual(['window', today, earlier]);
    expect(await panel.locator('tbody[data-day="window"] th').innerText()).toBe('Last 30 days');
    expect(await panel.locator('thead').innerText()).toMatch(
      /Day\s+Purpose\s+Calls\s+Input tokens\s+Output tokens/,
    );
    await panel.scrollIntoViewIfNeeded();
    await env.screenshot(page, 'model-usage-service-en');
    await panel.screenshot({ path: join(SCREENSHOTS, 'model-usage-panel-en.png') });
    // a window of 7 days still holds both days
    await page.goto('/admin/monitoring?tab=service&interval=0&days=7');
    await expect.poll(() => groupRows(page, earlier), { timeout: 10_000 }).toHaveLength(3);
    await context.close();

    for (const [name, viewport] of [
      ['desktop', VIEWPORTS.desktop],
      ['phone', VIEWPORTS.phone],
    ] as const) {
      const z = await env.newContext({ as: 'admin', viewport });
      await zh(z.context);
      await z.page.goto('/admin/monitoring?tab=service&interval=0');
      const zpanel = z.page.locator('[data-panel="svc-llm"]');
      await expect.poll(() => zpanel.locator('table').count(), { timeout: 10_000 }).toBe(1);
      const text = await zpanel.innerText();
      for (const word of ['模型用量', '模型呼叫次數', '輸入權杖', '輸出權杖', '1,259,877', '最近 30 天'])
        expect(text).toContain(word);
      expect((await groupRows(z.page, 'window')).map((r) => r[0])).toEqual([
        '文章分析',
        '翻譯',
        '報告查核',
        'summarize.v2',
      ]);
      expect(await noSideScroll(z.page)).toBeLessThanOrEqual(viewport.width);
      // on a phone the rows are stacked: each number carries its column's name
      if (name === 'phone') {
        expect(await zpanel.locator('thead').isVisible()).toBe(false);
        expect(
          await stackedLabels(z.page, '[data-panel="svc-llm"] tbody[data-day="window"] tr:first-child'),
        ).toEqual(['呼叫次數', '輸入權杖', '輸出權杖']);
      }
      await zpanel.scrollIntoViewIfNeeded();
      await env.screenshot(z.page, `model-usage-service-zh-TW-${name}`);
      await zpanel.screenshot({ path: join(SCREENSHOTS, `model-usage-panel-zh-TW-${name}.png`) });
      await z.context.close();
    }
  });

  it('shows a run’s model calls and tokens per purpose in its detail, and nothing for a run without any', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto(`/admin/jobs?run=${runId}`);
    const usage = page.getByTestId('run-llm');
    await expect.poll(() => usage.count(), { timeout: 10_000 }).toBe(1);
    expect(await usage.locator('h3').innerText()).toBe('Model usage');
    expect(await usage.innerText()).toContain('15 model calls, 1,239,067 input and 346,878 output tokens');
    const rows = await usage
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.children].map((c) => (c as HTMLElement).innerText.trim())),
      );
    expect(rows).toEqual([
      ['Article analysis', '12', '1,234,567', '345,678'],
      ['Translation', '3', '4,500', '1,200'],
    ]);
    await usage.scrollIntoViewIfNeeded();
    await env.screenshot(page, 'model-usage-run-en');
    await page.goto(`/admin/jobs?run=${quietRunId}`);
    await expect
      .poll(() => page.getByTestId('run-detail').innerText(), { timeout: 10_000 })
      .toContain('Every item was done.');
    expect(await usage.count()).toBe(0);
    await context.close();

    const z = await env.newContext({ as: 'admin', viewport: VIEWPORTS.phone });
    await zh(z.context);
    await z.page.goto(`/admin/jobs?run=${runId}`);
    const zusage = z.page.getByTestId('run-llm');
    await expect.poll(() => zusage.count(), { timeout: 10_000 }).toBe(1);
    const text = await zusage.innerText();
    expect(text).toContain('呼叫模型 15 次，輸入 1,239,067 個權杖、輸出 346,878 個權杖');
    expect(text).toMatch(/文章分析\s+12\s+1,234,567\s+345,678/);
    expect(await stackedLabels(z.page, '[data-testid="run-llm"] tbody tr:first-child')).toEqual([
      '呼叫次數',
      '輸入權杖',
      '輸出權杖',
    ]);
    expect(await noSideScroll(z.page)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await zusage.scrollIntoViewIfNeeded();
    await env.screenshot(z.page, 'model-usage-run-zh-TW-phone');
    await zusage.screenshot({ path: join(SCREENSHOTS, 'model-usage-run-panel-zh-TW-phone.png') });
    await z.context.close();
  });
});
