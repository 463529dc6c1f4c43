import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { LOKI_PARSE_ERROR, monitorEnv, storePeer } from '../peers/monitoring-store-peer.js';
import { makeArticle, makeSource, makeTopic, setMetric } from '../helpers/article-factories.js';
import { scraperRuns } from '../../src/infrastructure/db/schema/index.js';
import { join } from 'node:path';
import { SCREENSHOTS, startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';

/**
 * The monitoring page as an admin reads it (issue 18): fixed time axes, legends, tooltips, dark
 * mode, the panel errors of a refused query and of an outage, the one setup card when no store is
 * configured, and the Service tab from the service's own database; in en and zh-TW, desktop and phone.
 */
const zh = (context: BrowserContext) => context.addInitScript(() => localStorage.setItem('locale', 'zh-TW'));
const states = (page: Page) =>
  page
    .locator('[data-panel]')
    .evaluateAll((els) => els.map((e) => [e.getAttribute('data-panel'), e.getAttribute('data-state')]));
const allOk = async (page: Page) => {
  const s = await states(page);
  return s.length > 3 && s.every(([, x]) => x === 'ok');
};
/** relative luminance of a #rrggbb or rgb() colour, 0 (black) to 1 (white) */
function luminance(color: string): number {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color.trim());
  const rgb = hex
    ? hex.slice(1).map((h) => parseInt(h, 16))
    : (/rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(color)?.slice(1).map(Number) ?? [0, 0, 0]);
  const [r, g, b] = rgb.map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

describe.sequential('monitoring page with data from loopback Loki/Tempo peers', () => {
  const store = storePeer();
  let env: BrowserEnv;
  beforeAll(async () => {
    await store.peer.start();
    env = await startBrowserEnv({ env: monitorEnv(store.peer.url) });
  });
  afterAll(async () => {
    await env?.close();
    await store.peer.stop();
  });
  afterEach(() => store.behaviour.clear());

  it('draws every chart over the chosen 24 h (not the 2 minutes of data), with a legend and a hover tooltip', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/monitoring?range=24h&interval=0');
    await expect.poll(() => allOk(page), { timeout: 10_000 }).toBe(true);
    const charts = page.locator('[data-panel] .mon-chart');
    await expect.poll(() => charts.count()).toBeGreaterThanOrEqual(3);
    for (const chart of await charts.all()) {
      const [min, max] = [
        Number(await chart.getAttribute('data-x-min')),
        Number(await chart.getAttribute('data-x-max')),
      ];
      // the peer's series span 2 minutes; the axis spans the whole day up to now
      expect(max - min).toBe(24 * 3600);
      expect(Math.abs(max - Date.now() / 1000)).toBeLessThan(15 * 60 + 60);
      expect(await chart.locator('.u-legend .u-series').count()).toBeGreaterThanOrEqual(2);
      expect(await chart.locator('.u-legend').innerText()).toContain('stage=analysis');
    }
    // hover near the right end of the first chart, where the data is: a tooltip with time and value
    const over = charts.first().locator('.u-over');
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    const tip = charts.first().locator('.mon-tooltip');
    await expect.poll(() => tip.isVisible()).toBe(true);
    expect(await tip.innerText()).toMatch(/stage=analysis: \d/);
    expect(await tip.innerText()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await charts.first().screenshot({ path: join(SCREENSHOTS, 'monitoring-ui-tooltip-en.png') });
    await env.screenshot(page, 'monitoring-ui-24h-en');
    // the refresh picker sits beside the range and holds off, 30 s, 1 min, 5 min
    const picker = page.getByLabel('Auto refresh');
    expect(await picker.locator('option').allInnerTexts()).toEqual([
      'Off',
      'Every 30 s',
      'Every 1 min',
      'Every 5 min',
    ]);
    await picker.selectOption('30');
    await expect.poll(() => new URL(page.url()).searchParams.get('interval')).toBe('30');
    await context.close();
  });

  it('is readable in dark mode: axis and legend colours come from the page, light on dark', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/admin/monitoring?interval=0');
    await expect.poll(() => allOk(page), { timeout: 10_000 }).toBe(true);
    const chart = page.locator('[data-panel] .mon-chart').first();
    const axis = (await chart.getAttribute('data-axis-color'))!;
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const legend = await chart.locator('.u-legend').evaluate((e) => getComputedStyle(e).color);
    expect(luminance(axis)).toBeGreaterThan(0.6);
    expect(luminance(legend)).toBeGreaterThan(0.6);
    expect(luminance(bg)).toBeLessThan(0.05);
    await env.screenshot(page, 'monitoring-ui-dark-en');
    // switching back to light redraws with dark axes
    await page.emulateMedia({ colorScheme: 'light' });
    await expect
      .poll(async () => luminance((await chart.getAttribute('data-axis-color'))!))
      .toBeLessThan(0.1);
    await context.close();
  });

  it('shows a refused query with the store’s own reason, and an outage as the error plus the age of the last data, kept visible and stale', async () => {
    const catalog = (
      await env.api.app.inject({
        url: '/monitor/panels?range=24h&env=all',
        headers: (await env.api.login('admin')).headers,
      })
    ).json() as { panels: { id: string; tab: string; kind: string; query: { query?: string } }[] };
    const ops = catalog.panels.filter((p) => p.tab === 'operations');
    const refused = ops.find((p) => p.kind === 'stat')!;
    const down = ops.find((p) => p.kind === 'timeseries')!;
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/monitoring?interval=2');
    await expect.poll(() => allOk(page), { timeout: 10_000 }).toBe(true);
    store.behaviour.set(refused.query.query!, '400');
    store.behaviour.set(down.query.query!, '500');
    const panel = (id: string) => page.locator(`[data-panel="${id}"]`);
    await expect
      .poll(() => panel(refused.id).getAttribute('data-error'), { timeout: 10_000 })
      .toBe('bad_query');
    expect(await panel(refused.id).getAttribute('data-state')).toBe('error');
    expect(await panel(refused.id).innerText()).toContain('The log store refused this query');
    expect(await panel(refused.id).innerText()).toContain(LOKI_PARSE_ERROR);
    await expect
      .poll(() => panel(down.id).getAttribute('data-error'), { timeout: 10_000 })
      .toBe('upstream_error');
    expect(await panel(down.id).getAttribute('data-state')).toBe('stale');
    expect(await panel(down.id).innerText()).toContain('The log store is failing');
    expect(await panel(down.id).innerText()).toMatch(/Last good data: \d+ s ago/);
    expect(await panel(down.id).innerText()).toMatch(/stale · \d+ s ago/);
    expect(await panel(down.id).locator('.mon-chart canvas').count()).toBeGreaterThan(0);
    await env.screenshot(page, 'monitoring-ui-errors-en');
    // the store recovers: the next tick fills both again
    store.behaviour.clear();
    await expect.poll(() => allOk(page), { timeout: 10_000 }).toBe(true);
    expect(await panel(down.id).getAttribute('data-error')).toBeNull();
    await context.close();
  });

  it('is in Traditional Chinese under zh-TW, desktop and phone, with nothing sideways on a phone', async () => {
    for (const [name, viewport] of [
      ['desktop', VIEWPORTS.desktop],
      ['phone', VIEWPORTS.phone],
    ] as const) {
      const { page, context } = await env.newContext({ as: 'admin', viewport });
      await zh(context);
      await page.goto('/admin/monitoring?interval=0');
      await expect.poll(() => allOk(page), { timeout: 10_000 }).toBe(true);
      const text = await page.locator('.mon-page').innerText();
      for (const word of [
        '監控',
        '時間範圍',
        '環境',
        '自動重新整理',
        '營運',
        '日誌',
        '追蹤',
        '服務',
        '爬取執行次數',
        '各階段失敗數',
      ])
        expect(text).toContain(word);
      for (const word of [
        'Time range',
        'Environment',
        'Operations',
        'Scraper runs',
        'Failures by stage',
        'Refresh every',
      ])
        expect(text).not.toContain(word);
      expect(await page.locator('.mon-chart .u-legend').first().innerText()).toContain('stage=analysis');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await env.screenshot(page, `monitoring-ui-operations-zh-TW-${name}`);
      await context.close();
    }
  });
});

describe('the Metrics tab with data from a loopback Prometheus peer', () => {
  const store = storePeer();
  let env: BrowserEnv;
  beforeAll(async () => {
    await store.peer.start();
    env = await startBrowserEnv({ env: monitorEnv(store.peer.url) });
  });
  afterAll(async () => {
    await env?.close();
    await store.peer.stop();
  });

  it('draws the metrics store’s series over the fixed range with legends, and a PromQL mistake in Prometheus’ words (en, zh-TW phone)', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/monitoring?tab=metrics&range=24h&interval=0');
    await expect.poll(() => allOk(page), { timeout: 10_000 }).toBe(true);
    const chart = page.locator('[data-panel="met-articles"] .mon-chart');
    expect(
      Number(await chart.getAttribute('data-x-max')) - Number(await chart.getAttribute('data-x-min')),
    ).toBe(24 * 3600);
    expect(await chart.locator('.u-legend').innerText()).toMatch(/stage=published[\s\S]*stage=analysis/);
    expect(await page.locator('[data-panel="met-runs"] .u-legend').innerText()).toContain('status=completed');
    const sent = store.peer.requests.filter(
      (r) => r.path.endsWith('/api/v1/query_range') && !r.path.includes('loki'),
    );
    expect(sent.length).toBeGreaterThanOrEqual(4);
    // the query box: Prometheus' refusal (JSON errorType/error) on the panel
    store.behaviour.set('sum(up', '400');
    await page.getByRole('textbox', { name: 'Query the metrics store (PromQL)' }).fill('sum(up');
    await page.getByRole('button', { name: 'Run query' }).click();
    const explore = page.locator('[data-panel="met-explore"]');
    await expect.poll(() => explore.getAttribute('data-error'), { timeout: 10_000 }).toBe('bad_query');
    expect(await explore.innerText()).toContain(
      'bad_data: invalid parameter "query": 1:27: parse error: unclosed left parenthesis',
    );
    await env.screenshot(page, 'monitoring-ui-metrics-en');
    await context.close();

    const z = await env.newContext({ as: 'admin', viewport: VIEWPORTS.phone });
    await zh(z.context);
    await z.page.goto('/admin/monitoring?tab=metrics&interval=0');
    await expect.poll(() => allOk(z.page), { timeout: 10_000 }).toBe(true);
    const text = await z.page.locator('.mon-page').innerText();
    for (const word of ['指標', '各階段經過管線的文章數', '各狀態的爬取執行次數', '查詢指標儲存（PromQL）'])
      expect(text).toContain(word);
    expect(await z.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.phone.width,
    );
    await env.screenshot(z.page, 'monitoring-ui-metrics-zh-TW-phone');
    await z.context.close();
    store.behaviour.clear();
  });
});

describe.sequential('monitoring page without any monitoring store', () => {
  let env: BrowserEnv;
  beforeAll(async () => {
    env = await startBrowserEnv();
    const db = env.api.container.database.db;
    const now = Date.now();
    const topic = await makeTopic(db, { name: 'Machine learning' });
    const arxiv = await makeSource(db, {
      topicId: topic.id,
      name: 'arXiv cs.LG',
      lastFetchedAt: new Date(now - 600_000),
    });
    const blog = await makeSource(db, {
      topicId: topic.id,
      name: 'Lab blog',
      lastFetchedAt: new Date(now - 7_200_000),
      lastError: 'HTTP 404 Not Found',
    });
    await makeSource(db, { topicId: topic.id, name: 'Paused feed', enabled: false });
    const day = 86_400_000;
    await db.insert(scraperRuns).values(
      Array.from({ length: 12 }, (_, i) => ({
        correlationId: `run-${i}`,
        status:
          i % 4 === 3
            ? ('failed' as const)
            : i % 4 === 2
              ? ('completed_with_errors' as const)
              : ('completed' as const),
        startedAt: new Date(now - (i % 6) * day),
        counts: { published: 3, analysis_failed: i % 3, extraction_failed: i % 2 },
      })),
    );
    for (let i = 0; i < 9; i++) {
      const a = await makeArticle(db, {
        topicId: topic.id,
        source: i < 6 ? 'arXiv cs.LG' : 'Lab blog',
        sourceId: i < 6 ? arxiv.id : blog.id,
      });
      if (i % 3 === 0) await setMetric(db, a.id, 'citation_count', 10 + i);
    }
  });
  afterAll(() => env?.close());

  it('opens on the Service tab while no store is configured (en, zh-TW, phone)', async () => {
    for (const [lang, viewport] of [
      ['en', VIEWPORTS.desktop],
      ['zh-TW', VIEWPORTS.phone],
    ] as const) {
      const { page, context } = await env.newContext({ as: 'admin', viewport });
      if (lang === 'zh-TW') await zh(context);
      const sent: string[] = [];
      page.on('request', (r) => r.url().includes('/api/proxy/monitor/') && sent.push(r.url()));
      await page.goto('/admin/monitoring');
      await expect
        .poll(() => page.locator('[role="tab"][aria-selected="true"]').getAttribute('id'), {
          timeout: 10_000,
        })
        .toBe('tab-service');
      await expect.poll(() => page.locator('[data-panel="svc-runs"]').count()).toBe(1);
      // the first tab, and no panel of a store-reading tab shown or queried
      expect(await page.locator('[role="tab"]').first().getAttribute('id')).toBe('tab-service');
      expect(await page.getByTestId('setup-card').count()).toBe(0);
      expect(await page.locator('[data-state="not-configured"]').count()).toBe(0);
      expect(sent.filter((u) => !u.includes('/monitor/panels'))).toEqual([]);
      expect(await page.getByTestId('no-store-note').innerText()).toContain(
        lang === 'en' ? 'No monitoring store is configured' : '尚未設定任何監控儲存',
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await env.screenshot(page, `monitoring-opens-on-service-${lang}${lang === 'en' ? '' : '-phone'}`);
      await context.close();
    }
  });

  it("shows one compact setup card with every store's state, the same on every tab; panels only name the store they wait for", async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    const sent: string[] = [];
    page.on('request', (r) => r.url().includes('/api/proxy/monitor/') && sent.push(r.url()));
    await page.goto('/admin/monitoring?tab=operations&interval=1');
    const card = page.getByTestId('setup-card');
    await expect
      .poll(() => card.locator('[data-store="logs"]').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('missing');
    expect(await page.getByTestId('setup-card').count()).toBe(1);
    // every store's state is known from the start, not only the one this tab asked
    for (const store of ['traces', 'metrics'])
      expect(await card.locator(`[data-store="${store}"]`).getAttribute('data-status')).toBe('missing');
    const waiting = await states(page);
    expect(waiting.length).toBeGreaterThan(3);
    expect(waiting.every(([, x]) => x === 'not-configured')).toBe(true);
    // one explanation: each panel says only which store it needs
    expect(await page.getByText('Monitoring is not configured').count()).toBe(0);
    expect(await page.getByText('Needs the log store').count()).toBe(waiting.length);
    expect(await page.getByText('MONITOR_LOGS_URL').count()).toBe(1);
    const text = await card.innerText();
    for (const v of ['MONITOR_LOGS_URL', 'MONITOR_TRACES_URL', 'MONITOR_METRICS_URL'])
      expect(text).toContain(v);
    expect(text).toContain('Service tab needs none');
    // what the log store feeds, on hover; authentication folded away until asked for
    expect(await card.locator('[data-store="logs"] small[title]').getAttribute('title')).toContain(
      'Scraper runs',
    );
    expect(text).not.toContain('MONITOR_API_KEY');
    // one compact card (the old one was 750 px tall): the panels' placeholders show below it
    expect((await card.boundingBox())!.height).toBeLessThan(VIEWPORTS.desktop.height * 0.4);
    await env.screenshot(page, 'monitoring-ui-setup-compact-en');
    await card.getByText('Authentication and other hosts').click();
    for (const v of ['MONITOR_URL', 'MONITOR_API_KEY', 'MONITOR_LOGS_USER'])
      expect(await card.innerText()).toContain(v);
    // nothing more is asked after the 503 (interval 1 s)
    const count = sent.length;
    await page.waitForTimeout(2500);
    expect(sent.length).toBe(count);
    await page.getByRole('tab', { name: 'Traces' }).click();
    await expect
      .poll(() => card.locator('[data-store="traces"]').getAttribute('data-status'))
      .toBe('missing');
    await env.screenshot(page, 'monitoring-ui-setup-en');
    await context.close();

    for (const [name, viewport] of [
      ['desktop', VIEWPORTS.desktop],
      ['phone', VIEWPORTS.phone],
    ] as const) {
      const z = await env.newContext({ as: 'admin', viewport });
      await zh(z.context);
      await z.page.goto('/admin/monitoring?tab=operations&interval=0');
      const zcard = z.page.getByTestId('setup-card');
      await expect
        .poll(() => zcard.locator('[data-store="logs"]').getAttribute('data-status'), { timeout: 10_000 })
        .toBe('missing');
      expect(await zcard.innerText()).toContain('連接監控儲存');
      expect(await zcard.innerText()).toContain('尚未設定');
      expect(await z.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await env.screenshot(z.page, `monitoring-ui-setup-zh-TW-${name}`);
      await z.context.close();
    }
  });

  it('fills the Service tab from the service’s own database: runs per day, failures per stage, articles per source, coverage, last runs', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/monitoring?tab=operations&interval=0');
    await page.getByRole('tab', { name: 'Service' }).click();
    const panel = (id: string) => page.locator(`[data-panel="${id}"]`);
    await expect.poll(() => panel('svc-runs').count(), { timeout: 10_000 }).toBe(1);
    const chart = panel('svc-runs').locator('.mon-chart');
    await expect.poll(() => chart.getAttribute('data-x-max')).not.toBeNull();
    expect(
      Number(await chart.getAttribute('data-x-max')) - Number(await chart.getAttribute('data-x-min')),
    ).toBe(30 * 86_400);
    // every final status is its own series: runs that completed with problems are counted too
    expect(await chart.locator('.u-legend').innerText()).toMatch(
      /completed[\s\S]*completed with problems[\s\S]*failed/,
    );
    expect(await panel('svc-runs').locator('h3').innerText()).toBe('Job runs started per day, by outcome');
    const over = chart.locator('.u-over');
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width - 3, box.y + box.height / 2);
    await expect.poll(() => chart.locator('.mon-tooltip').innerText()).toMatch(/completed: \d/);
    expect(await panel('svc-failures').innerText()).toMatch(/Analysis\s+12/);
    expect(await panel('svc-failures').innerText()).toMatch(/Extraction \(older runs\)\s+6/);
    expect(await panel('svc-sources').innerText()).toMatch(/arXiv cs\.LG\s+6/);
    expect(await panel('svc-sources').innerText()).toMatch(/Lab blog\s+3/);
    expect(await panel('svc-coverage').innerText()).toContain('33.3%');
    expect(await panel('svc-coverage').innerText()).toContain('3 of 9 articles');
    const last = await panel('svc-last-runs').innerText();
    expect(last).toContain('HTTP 404 Not Found');
    expect(last).toMatch(/Paused feed[\s\S]*never/);
    expect(await page.getByTestId('setup-card').count()).toBe(0);
    await chart.screenshot({ path: join(SCREENSHOTS, 'monitoring-ui-service-tooltip-en.png') });
    await env.screenshot(page, 'monitoring-ui-service-en');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect
      .poll(async () => luminance((await chart.getAttribute('data-axis-color'))!))
      .toBeGreaterThan(0.6);
    await env.screenshot(page, 'monitoring-ui-service-dark-en');
    await context.close();

    for (const [name, viewport] of [
      ['desktop', VIEWPORTS.desktop],
      ['phone', VIEWPORTS.phone],
    ] as const) {
      const z = await env.newContext({ as: 'admin', viewport });
      await zh(z.context);
      await z.page.goto('/admin/monitoring?tab=service&interval=0');
      await expect
        .poll(() => z.page.locator('[data-panel="svc-coverage"]').count(), { timeout: 10_000 })
        .toBe(1);
      const text = await z.page.locator('.mon-page').innerText();
      for (const word of [
        '每日開始的工作執行次數（依結果）',
        '完成但有問題',
        '各處理階段的失敗項目數',
        '分析',
        '各來源收錄的文章數',
        '有引用數的文章比例',
        '各來源最近一次擷取',
        '9 篇文章中有 3 篇',
      ])
        expect(text).toContain(word);
      expect(await z.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      // source names are read whole, never cut to a few letters
      const cut = await z.page
        .locator('[data-panel="svc-sources"] .mon-bar-name')
        .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
      expect(cut).toEqual([]);
      expect(await z.page.locator('[data-panel="svc-sources"]').innerText()).toContain('arXiv cs.LG');
      await env.screenshot(z.page, `monitoring-ui-service-zh-TW-${name}`);
      await z.context.close();
    }
  });
});

describe('monitoring page with the trace store only', () => {
  const store = storePeer();
  let env: BrowserEnv;
  beforeAll(async () => {
    await store.peer.start();
    const { MONITOR_LOGS_URL: _url, MONITOR_LOGS_USER: _user, ...traces } = monitorEnv(store.peer.url);
    env = await startBrowserEnv({ env: traces });
  });
  afterAll(async () => {
    await env?.close();
    await store.peer.stop();
  });

  it('names the missing log store on the panels that need it, and fills the trace panels', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/monitoring?tab=traces&interval=0');
    const card = page.getByTestId('setup-card');
    await expect
      .poll(() => card.locator('[data-store="logs"]').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('missing');
    await expect.poll(() => card.locator('[data-store="traces"]').getAttribute('data-status')).toBe('ok');
    const s = await states(page);
    expect(s.some(([, x]) => x === 'ok')).toBe(true);
    const waiting = s.filter(([, x]) => x === 'not-configured');
    expect(waiting.length).toBeGreaterThan(0);
    for (const [id] of waiting)
      expect(await page.locator(`[data-panel="${id}"]`).innerText()).toContain('Needs the log store');
    expect(await page.getByText('Needs the trace store').count()).toBe(0);
    await env.screenshot(page, 'monitoring-ui-traces-only-en');
    // the Operations tab reads only the log store: every panel waits for it, one card explains
    await page.getByRole('tab', { name: 'Operations' }).click();
    await expect
      .poll(async () => {
        const s = await states(page);
        return s.length > 3 && s.every(([, x]) => x === 'not-configured');
      })
      .toBe(true);
    expect(await card.count()).toBe(1);
    await context.close();
  });
});
