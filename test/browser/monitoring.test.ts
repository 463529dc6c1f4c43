import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { monitorEnv, storePeer } from '../peers/monitoring-store-peer.js';
import { dashboardChunk, startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';

/**
 * The admin dashboard in Chromium against the built app, the real backend and Loki/Tempo-speaking
 * peers on loopback. Requests are counted as the browser sends them to /api/proxy/monitor/*.
 */
function recordMonitorRequests(page: Page) {
  const seen: { method: string; path: string; body: unknown }[] = [];
  page.on('request', (r: Request) => {
    const u = new URL(r.url());
    if (!u.pathname.startsWith('/api/proxy/monitor/') || u.pathname.endsWith('/panels')) return;
    seen.push({
      method: r.method(),
      path: u.pathname + u.search,
      body: r.postData() ? JSON.parse(r.postData()!) : undefined,
    });
  });
  return seen;
}

const batches = <T extends { method: string; path: string }>(seen: T[]) =>
  seen.filter((r) => r.method === 'POST' && r.path.endsWith('/batch'));
const panelStates = (page: Page) =>
  page
    .locator('[data-panel]')
    .evaluateAll((els) => els.map((e) => [e.getAttribute('data-panel'), e.getAttribute('data-state')]));

describe.sequential('monitoring dashboard in Chromium', () => {
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
  // a failed test must not leave its upstream knobs on for the next one
  afterEach(() => {
    store.behaviour.clear();
    store.setDelay(0);
    store.setBulkSpans(0);
  });

  it('fills the Operations tab with one batch per datasource, ticks with one batch per type, refreshes a panel with one GET', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    const seen = recordMonitorRequests(page);
    await page.goto('/admin/monitoring?interval=3');
    await expect.poll(async () => (await panelStates(page)).length).toBeGreaterThan(3);
    await expect
      .poll(async () => (await panelStates(page)).every(([, s]) => s === 'ok'), { timeout: 10_000 })
      .toBe(true);
    const first = batches(seen);
    const types = first.map((b) => b.path.split('/')[4]);
    expect(new Set(types).size).toBe(types.length); // one per datasource type
    expect(types.every((t) => t !== 'metrics')).toBe(true); // the dashboard never queries the metrics store
    await env.screenshot(page, 'monitoring-operations-desktop');

    // one interval tick: one more batch per type, no reload
    await expect.poll(() => batches(seen).length, { timeout: 8000 }).toBe(first.length * 2);
    expect(
      batches(seen)
        .slice(first.length)
        .map((b) => b.path.split('/')[4])
        .sort(),
    ).toEqual([...types].sort());
    // a tick asks for the window up to now: its queries end later than the first visit's
    const ends = (list: typeof first) =>
      list.flatMap((b) =>
        (b.body as { queries: { end: string | number }[] }).queries.map((q) => BigInt(String(q.end))),
      );
    const [firstEnd, tickEnd] = [ends(first)[0]!, ends(batches(seen).slice(first.length))[0]!];
    expect(tickEnd > firstEnd).toBe(true);

    // the refresh icon of one panel: exactly one GET, with a spinner while it loads
    store.setDelay(600);
    const before = seen.length;
    const panel = page.locator('[data-panel]').first();
    const button = panel.getByRole('button', { name: /^Refresh / });
    await button.click();
    await expect.poll(() => button.getAttribute('aria-busy')).toBe('true');
    await expect.poll(() => button.getAttribute('aria-busy')).toBe('false');
    store.setDelay(0);
    const after = seen.slice(before).filter((r) => !r.path.endsWith('/batch'));
    expect(after).toHaveLength(1);
    expect(after[0]!.method).toBe('GET');

    await context.close();
  });

  it("asks for the opening tab's first batch while the dashboard's code is still loading, and the page takes it", async () => {
    const chunk = dashboardChunk();
    for (const [address, tab] of [
      ['/admin/monitoring?interval=0', 'operations'],
      ['/admin/monitoring?interval=0&tab=logs', 'logs'],
    ] as const) {
      const { page, context } = await env.newContext({ as: 'admin' });
      const order: string[] = [];
      // the chunk is held back: a batch sent by the rendered page would come after it
      await context.route(`**/assets/${chunk}`, async (route) => {
        await new Promise((r) => setTimeout(r, 800));
        order.push('code released');
        await route.continue();
      });
      const seen = recordMonitorRequests(page);
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/batch')) order.push('batch requested');
      });
      await page.goto(address);
      await expect
        .poll(() => page.getByRole('tab', { selected: true }).getAttribute('id'))
        .toBe(`tab-${tab}`);
      await expect
        .poll(async () => {
          const states = await panelStates(page);
          return states.length > 0 && states.every(([, s]) => s === 'ok');
        })
        .toBe(true);
      // every batch of the first visit went out before the code arrived: no round trip waits on a render
      const types = batches(seen).map((b) => b.path.split('/')[4]);
      expect(types.length).toBeGreaterThan(0);
      expect(new Set(types).size).toBe(types.length);
      expect(order.lastIndexOf('batch requested')).toBeLessThan(order.indexOf('code released'));
      // each panel of the tab was asked for once, in one of those batches: the page sent none of its own
      const asked = batches(seen).flatMap((b) =>
        (b.body as { queries: { id: string }[] }).queries.map((q) => q.id),
      );
      expect(asked.length).toBe((await panelStates(page)).length);
      await context.close();
    }
  });

  it('fills the Logs and Traces tabs on their first visit with one batch per datasource type of the tab', async () => {
    const catalog = (
      await env.api.app.inject({
        url: '/monitor/panels?range=24h&env=all',
        headers: (await env.api.login('admin')).headers,
      })
    ).json() as { panels: { tab: string; datasource: string }[] };
    const { page, context } = await env.newContext({ as: 'admin' });
    const seen = recordMonitorRequests(page);
    await page.goto('/admin/monitoring?interval=600');
    await expect.poll(() => batches(seen).length, { timeout: 10_000 }).toBeGreaterThan(0);
    for (const [tab, id] of [
      ['Logs', 'logs'],
      ['Traces', 'traces'],
    ] as const) {
      await expect
        .poll(async () => {
          const states = await panelStates(page);
          return states.length > 0 && states.every(([, s]) => s === 'ok');
        })
        .toBe(true);
      const mark = seen.length;
      await page.getByRole('tab', { name: tab }).click();
      const types = [...new Set(catalog.panels.filter((p) => p.tab === id).map((p) => p.datasource))].sort();
      await expect.poll(() => seen.length - mark).toBeGreaterThanOrEqual(types.length);
      await expect
        .poll(async () => {
          const states = await panelStates(page);
          return states.length > 0 && states.every(([, s]) => s === 'ok');
        })
        .toBe(true);
      const sent = seen.slice(mark);
      expect(sent.every((r) => r.method === 'POST' && r.path.endsWith('/batch'))).toBe(true);
      expect(sent.map((r) => r.path.split('/')[4]).sort()).toEqual(types);
    }
    await context.close();
  });

  it('applies the global filters to every query of the next batch', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    const seen = recordMonitorRequests(page);
    await page.goto('/admin/monitoring?interval=600');
    await expect.poll(() => batches(seen).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const initial = batches(seen).flatMap(
      (b) => (b.body as { queries: { id: string; start: unknown; query?: string; q?: string }[] }).queries,
    );
    const n = batches(seen).length;
    await page.getByLabel('Time range').selectOption('7d');
    await expect.poll(() => batches(seen).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(n * 2);
    const ranged = batches(seen)
      .slice(n)
      .flatMap((b) => (b.body as { queries: { id: string; start: unknown }[] }).queries);
    expect(ranged.length).toBe(initial.length);
    for (const q of ranged) expect(q.start).not.toEqual(initial.find((i) => i.id === q.id)?.start);
    const m = batches(seen).length;
    await page.getByLabel('Environment').selectOption('production');
    await expect.poll(() => batches(seen).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(m + n);
    const envd = batches(seen)
      .slice(m)
      .flatMap((b) => (b.body as { queries: { query?: string; q?: string }[] }).queries);
    for (const q of envd) expect(q.query ?? q.q).toContain('production');
    await context.close();
  });

  it('marks a rate-limited panel stale with its age and shows a garbage answer as that panel’s error only', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    const catalog = (
      await env.api.app.inject({
        url: '/monitor/panels?range=24h&env=all',
        headers: (await env.api.login('admin')).headers,
      })
    ).json() as {
      panels: { id: string; tab: string; datasource: string; query: { query?: string } }[];
    };
    const ops = catalog.panels.filter((p) => p.tab === 'operations' && p.datasource === 'log-metrics');
    expect(ops.length).toBeGreaterThanOrEqual(2);
    const [limited, broken] = [ops[0]!, ops[1]!];
    await page.goto('/admin/monitoring?interval=3');
    await expect
      .poll(async () => (await panelStates(page)).every(([, s]) => s === 'ok'), { timeout: 10_000 })
      .toBe(true);
    const errors: string[] = [];
    page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
    store.behaviour.set(limited.query.query!, '429');
    store.behaviour.set(broken.query.query!, 'garbage');
    const stateOf = (id: string) => page.locator(`[data-panel="${id}"]`).getAttribute('data-state');
    await expect.poll(() => stateOf(limited.id), { timeout: 10_000 }).toBe('stale');
    await expect.poll(() => stateOf(broken.id), { timeout: 10_000 }).toBe('error');
    await expect
      .poll(() => page.locator(`[data-panel="${limited.id}"]`).innerText())
      .toMatch(/stale · \d+ s ago/);
    const others = (await panelStates(page)).filter(([id]) => id !== limited.id && id !== broken.id);
    expect(others.every(([, s]) => s === 'ok')).toBe(true);
    expect(errors.join('\n')).toContain(broken.id);
    store.behaviour.clear();
    await context.close();
  });

  it('opens the waterfall and workflow dialogs from the traces table, and the log detail dialog from a log row', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/monitoring?tab=traces&interval=600');
    await page
      .getByRole('button', { name: /^Expand run/ })
      .first()
      .click();
    const articles = page.getByRole('list', { name: 'article pipelines' }).first();
    await expect.poll(() => articles.locator('li').count()).toBe(3);
    await page.getByRole('button', { name: 'Open waterfall' }).first().click();
    const waterfall = page.getByTestId('waterfall');
    await expect.poll(() => waterfall.getByRole('listitem').count()).toBe(14);
    await waterfall.getByRole('listitem', { name: /article\.analysis_failed\.handle.*error/ }).click();
    await expect
      .poll(() => page.getByRole('region', { name: 'selected span' }).innerText())
      .toContain('model refused the request');
    await env.screenshot(page, 'monitoring-waterfall');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Workflow of https://feed.test/article-2' }).click();
    const workflow = page.getByTestId('workflow');
    await expect.poll(() => workflow.innerText()).toContain('model refused the request');
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Logs' }).click();
    await page
      .getByRole('row', { name: /log entry article\.analysis\.failed/ })
      .first()
      .click();
    await expect.poll(() => page.getByTestId('log-raw').innerText()).toContain('corr-123');
    await expect.poll(() => page.getByRole('dialog').innerText()).toContain('Correlation id');
    await env.screenshot(page, 'monitoring-log-detail');
    // the copy button puts the raw entry on the clipboard
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('dialog').getByRole('button', { name: /Copy/ }).click();
    await expect
      .poll(() =>
        page
          .getByRole('dialog')
          .getByRole('button', { name: /Copied/ })
          .count(),
      )
      .toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('corr-123');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // keyboard only: Enter on a focused row opens the dialog with focus inside; Escape returns focus to the row
    const row = page.getByRole('row', { name: /log entry article\.analysis\.failed/ }).first();
    await row.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(1);
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog')))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''))
      .toMatch(/^log entry article\.analysis\.failed/);
    await context.close();
  });

  it('fits a phone: panels fill, nothing overflows sideways, the filters stay reachable', async () => {
    const { page, context } = await env.newContext({ as: 'admin', viewport: VIEWPORTS.phone });
    await page.goto('/admin/monitoring?interval=600');
    await expect
      .poll(
        async () => {
          const states = await panelStates(page);
          return states.length > 3 && states.every(([, s]) => s === 'ok');
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.phone.width,
    );
    await expect.poll(() => page.getByLabel('Time range').isVisible()).toBe(true);
    await expect.poll(() => page.getByLabel('Environment').isVisible()).toBe(true);
    await env.screenshot(page, 'monitoring-operations-phone');
    await context.close();
  });

  it('keeps the waterfall of a 5,000-span trace light: only the rows in view are in the page, and it scrolls to the last span', async () => {
    store.setBulkSpans(5000 - 14);
    const { page, context } = await env.newContext({ as: 'admin' });
    try {
      await page.goto('/admin/monitoring?tab=traces&interval=600');
      await page
        .getByRole('button', { name: /^Expand run/ })
        .first()
        .click();
      const t0 = Date.now();
      await page.getByRole('button', { name: 'Open waterfall' }).first().click();
      const waterfall = page.getByTestId('waterfall');
      await expect.poll(() => page.getByRole('dialog').innerText()).toContain('5000 spans');
      const openMs = Date.now() - t0;
      const rendered = await waterfall.getByRole('listitem').count();
      expect(rendered).toBeGreaterThan(10);
      expect(rendered).toBeLessThan(60);
      // scroll through the whole list in 40 steps, one frame each; the DOM stays bounded throughout
      const frames = await waterfall.evaluate(async (el) => {
        const times: number[] = [];
        for (let k = 1; k <= 40; k++) {
          const t = performance.now();
          el.scrollTop = (el.scrollHeight * k) / 40;
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          times.push(performance.now() - t);
        }
        return times;
      });
      // the last of the 5,000 rows is in the page once scrolled to the bottom
      await expect
        .poll(() =>
          waterfall
            .getByRole('listitem')
            .evaluateAll((els) => Math.max(...els.map((e) => parseFloat((e as HTMLElement).style.top)))),
        )
        .toBe(4999 * 24);
      expect(await waterfall.getByRole('listitem').count()).toBeLessThan(60);
      const sorted = [...frames].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      console.info(
        `waterfall 5,000 spans: opened in ${openMs} ms, scroll step median ${median.toFixed(1)} ms`,
      );
      expect(median).toBeLessThan(100); // two frames per step; a non-virtualized list takes far longer
    } finally {
      store.setBulkSpans(0);
      await context.close();
    }
  });
});

describe('monitoring dashboard without credentials', () => {
  let env: BrowserEnv;
  beforeAll(async () => {
    env = await startBrowserEnv();
  });
  afterAll(() => env?.close());

  it('shows one setup card and a short placeholder in every panel, and sends nothing more after the first 503', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    const seen = recordMonitorRequests(page);
    await page.goto('/admin/monitoring?tab=operations&interval=1');
    await expect
      .poll(() => page.getByTestId('setup-card').locator('[data-store="logs"]').getAttribute('data-status'), {
        timeout: 10_000,
      })
      .toBe('missing');
    expect(await page.getByTestId('setup-card').count()).toBe(1);
    const placeholders = await panelStates(page);
    expect(placeholders.length).toBeGreaterThan(3);
    expect(placeholders.every(([, s]) => s === 'not-configured')).toBe(true);
    const count = seen.length;
    await page.waitForTimeout(3000);
    expect(seen.length).toBe(count);
    expect(
      await page
        .locator('img')
        .evaluateAll((imgs) => imgs.filter((i) => !(i as HTMLImageElement).complete).length),
    ).toBe(0);
    await env.screenshot(page, 'monitoring-not-configured');
    await context.close();
  });
});
