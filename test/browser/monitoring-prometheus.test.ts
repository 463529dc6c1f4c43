import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeItem, rssFeed, seedPipeline, startFeedServer } from '../helpers/pipeline-factories.js';
import type { HttpPeer } from '../peers/http-peer.js';
import { PrometheusProcess, freePort, prometheusAvailable, until } from '../monitoring/prometheus-process.js';
import { startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';

/**
 * Issue 18's must-show against Debian's real Prometheus on loopback, in the browser: the Metrics tab
 * draws the pipeline counters Prometheus scraped from the service's /metrics; a PromQL typo in the
 * query box shows Prometheus' own reason on the panel; while Prometheus is stopped the panels show
 * the outage with the age of their last good data, kept visible and stale, and they recover after it
 * restarts. The store has no auth (only MONITOR_METRICS_URL), as a self-hosted Prometheus.
 */
const panel = (page: Page, id: string) => page.locator(`[data-panel="${id}"]`);

describe.runIf(prometheusAvailable())('Metrics tab against a real Prometheus', () => {
  let dir: string;
  let prometheus: PrometheusProcess;
  let env: BrowserEnv;
  let feeds: HttpPeer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prometheus-browser-'));
    const port = await freePort();
    prometheus = new PrometheusProcess({ dir, port });
    env = await startBrowserEnv({
      env: {
        METRICS_COLLECTOR: 'true',
        MONITOR_METRICS_URL: prometheus.url,
        FETCH_ALLOWED_HOSTS: '127.0.0.1',
      },
    });
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        'scrape_configs:',
        '  - job_name: article-intel',
        '    static_configs:',
        `      - targets: ['${new URL(env.apiUrl).host}']`,
        '        labels: { deployment_environment: local }',
        '',
      ].join('\n'),
    );
    await prometheus.start();
    feeds = await startFeedServer({ '/feed.xml': rssFeed(Array.from({ length: 6 }, () => makeItem())) });
    const admin = (await env.api.login('admin')).headers;
    await seedPipeline(env.api.app, admin, { sources: [{ name: 'feed', url: `${feeds.url}/feed.xml` }] });
    const run = await env.api.app.inject({ method: 'POST', url: '/admin/scraper/runs', headers: admin });
    const runId = run.json<{ run_id: string }>().run_id;
    await until(
      async () => {
        const r = await env.api.app.inject({ url: `/admin/scraper/runs/${runId}`, headers: admin });
        return ['queued', 'running'].includes(r.json<{ status: string }>().status) ? undefined : true;
      },
      60_000,
      'the scraper run',
    );
    // two scrapes of the new counters, so increase() has a value
    await new Promise((r) => setTimeout(r, 3000));
  }, 180_000);

  afterAll(async () => {
    await prometheus?.stop();
    await feeds?.stop();
    await env?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('draws the scraped counters, shows a PromQL typo’s reason on the panel, an outage with the data’s age, and the recovery', async () => {
    const { page, context } = await env.newContext({ as: 'admin', viewport: VIEWPORTS.desktop });
    await page.goto('/admin/monitoring?tab=metrics&range=6h&env=local&interval=2');
    await expect
      .poll(() => panel(page, 'met-articles').getAttribute('data-state'), { timeout: 20_000 })
      .toBe('ok');
    const articles = panel(page, 'met-articles');
    await expect
      .poll(() => articles.locator('.u-legend').innerText(), { timeout: 20_000 })
      .toContain('stage=published');
    const chart = articles.locator('.mon-chart');
    expect(
      Number(await chart.getAttribute('data-x-max')) - Number(await chart.getAttribute('data-x-min')),
    ).toBe(6 * 3600);
    await expect.poll(() => panel(page, 'met-runs').innerText()).toContain('status=completed');

    // a query without step: the proxy picks one, Prometheus answers data
    const box = page.getByRole('textbox', { name: 'Query the metrics store (PromQL)' });
    await box.fill('sum by (stage) (pipeline_articles_total)');
    await page.getByRole('button', { name: 'Run query' }).click();
    const explore = panel(page, 'met-explore');
    await expect.poll(() => explore.getAttribute('data-state'), { timeout: 10_000 }).toBe('ok');
    await expect.poll(() => explore.locator('.u-legend').innerText()).toContain('stage=published');
    expect(new URL(page.url()).searchParams.get('q')).toBe('sum by (stage) (pipeline_articles_total)');
    await env.screenshot(page, 'monitoring-prometheus-metrics-en');

    // a PromQL typo: Prometheus' own reason on the panel, not "the data source answered HTTP 400"
    await box.fill('sum(rate(pipeline_articles_total[5m])');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => explore.getAttribute('data-error'), { timeout: 10_000 }).toBe('bad_query');
    const text = await explore.innerText();
    expect(text).toContain('The metrics store refused this query');
    expect(text).toMatch(/parse error: unclosed left parenthesis/);
    expect(text).not.toContain('HTTP 400');
    await env.screenshot(page, 'monitoring-prometheus-bad-query-en');

    // Prometheus stops: the panels keep their data, marked stale, with the error and its age
    await box.fill('sum by (stage) (pipeline_articles_total)');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(() => explore.getAttribute('data-state'), { timeout: 10_000 }).toBe('ok');
    await prometheus.stop();
    for (const id of ['met-articles', 'met-explore']) {
      await expect
        .poll(() => panel(page, id).getAttribute('data-error'), { timeout: 15_000 })
        .toBe('upstream_error');
      expect(await panel(page, id).getAttribute('data-state')).toBe('stale');
      const during = await panel(page, id).innerText();
      expect(during).toContain('The metrics store is failing');
      expect(during).toMatch(/Last good data: \d+ s ago/);
      expect(await panel(page, id).locator('.mon-chart canvas').count()).toBeGreaterThan(0);
    }
    expect(await panel(page, 'met-articles').innerText()).toMatch(/stale · \d+ (s|min) ago/);
    await env.screenshot(page, 'monitoring-prometheus-outage-en');

    // it comes back: the next ticks fill the panels again
    await prometheus.start();
    for (const id of ['met-articles', 'met-explore'])
      await expect.poll(() => panel(page, id).getAttribute('data-state'), { timeout: 30_000 }).toBe('ok');
    expect(await panel(page, 'met-articles').getAttribute('data-error')).toBeNull();
    await context.close();

    // zh-TW: the tab, the panels and the query box in Traditional Chinese
    const z = await env.newContext({ as: 'admin', viewport: VIEWPORTS.phone });
    await z.context.addInitScript(() => localStorage.setItem('locale', 'zh-TW'));
    await z.page.goto(
      `/admin/monitoring?tab=metrics&range=6h&env=local&interval=0&q=${encodeURIComponent('sum(up')}`,
    );
    await expect
      .poll(() => panel(z.page, 'met-explore').getAttribute('data-error'), { timeout: 15_000 })
      .toBe('bad_query');
    const zh = await z.page.locator('.mon-page').innerText();
    for (const word of ['指標', '查詢指標儲存（PromQL）', '執行查詢', '指標儲存拒絕了此查詢'])
      expect(zh).toContain(word);
    expect(await z.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.phone.width,
    );
    await env.screenshot(z.page, 'monitoring-prometheus-bad-query-zh-TW-phone');
    await z.context.close();
  }, 180_000);
});
