import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardChunk, entryScript, startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

/**
 * Pages whose code loads on first visit: the code is requested while the session is still being
 * checked (not after), the monitoring dashboard's panel catalog while its code is still loading,
 * and a page whose code cannot be loaded says so and offers to reload, where the whole app used to
 * go blank.
 */
let env: BrowserEnv;

beforeAll(async () => {
  env = await startBrowserEnv();
});
afterAll(async () => {
  await env?.close();
});

describe('pages loaded on first visit', () => {
  it("asks for the page's code before the session check has answered, and for the session once", async () => {
    const { page, context } = await env.newContext({ as: 'user' });
    const order: string[] = [];
    // the session's answer is held back: the code must not wait for it
    await context.route('**/api/proxy/auth/me', async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    // and so is the app's code: the session is asked for by the page itself, not only by the app
    await context.route(`**/assets/${entryScript()}`, async (route) => {
      await new Promise((r) => setTimeout(r, 300));
      order.push('app code released');
      await route.continue();
    });
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path === '/api/proxy/auth/me' || /\/assets\/settings-page-[^/]+\.js$/.test(path))
        order.push(`request ${path.includes('settings') ? 'code' : 'session'}`);
    });
    page.on('requestfinished', (r) => {
      if (new URL(r.url()).pathname === '/api/proxy/auth/me') order.push('session answered');
    });
    await page.goto('/settings');
    await expect.poll(() => page.locator('h1').innerText()).toBe('Settings');
    expect(order).toContain('request code');
    expect(order.indexOf('request code')).toBeLessThan(order.indexOf('session answered'));
    // index.html asks for the session while the app's code downloads, and the app takes that answer
    expect(order.indexOf('request session')).toBeLessThan(order.indexOf('app code released'));
    expect(order.filter((o) => o === 'request session')).toHaveLength(1);
    await context.close();
  });

  it('a page whose code fails to load says so and offers a reload, in the layout (en, zh-TW)', async () => {
    const { page, context } = await env.newContext({ as: 'user' });
    await page.goto('/articles');
    await expect.poll(() => page.getByRole('link', { name: 'Settings' }).count()).toBeGreaterThan(0);
    await context.route(/\/assets\/settings-page-[^/]+\.js$/, (route) => route.abort('failed'));
    await page.getByRole('link', { name: 'Settings' }).first().click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.innerText()).toContain('This page could not be loaded');
    // the layout stays: the reader can go elsewhere
    expect(await page.getByRole('link', { name: 'Settings' }).count()).toBeGreaterThan(0);
    await env.screenshot(page, 'lazy-page-failed-en');
    await page.getByLabel('Language').selectOption('zh-TW');
    await expect.poll(() => alert.innerText()).toContain('無法載入此頁面');
    await env.screenshot(page, 'lazy-page-failed-zh-TW');
    // once the code can be had again, the reload shows the page
    await context.unroute(/\/assets\/settings-page-[^/]+\.js$/);
    await alert.getByRole('button', { name: '重新載入' }).click();
    await expect.poll(() => page.locator('h1').innerText()).toBe('設定');
    await context.close();
  });

  it("asks for the dashboard's panel catalog once, while the dashboard's code is still loading, and only for an admin", async () => {
    const chunk = dashboardChunk();
    const watch = async (as: 'user' | 'admin') => {
      const { page, context } = await env.newContext({ as });
      const seen: string[] = [];
      // the chunk is held back for a second: a catalog asked for by the rendered page would come after it
      await context.route(`**/assets/${chunk}`, async (route) => {
        await new Promise((r) => setTimeout(r, 1_000));
        seen.push('code released');
        await route.continue();
      });
      page.on('request', (r) => {
        const path = new URL(r.url()).pathname;
        if (path === '/api/proxy/monitor/panels') seen.push('catalog requested');
        if (path === '/api/proxy/auth/registration') seen.push('registration requested');
      });
      await page.goto('/admin/monitoring?tab=service');
      return { page, context, seen };
    };

    const admin = await watch('admin');
    await expect.poll(() => admin.page.locator('[data-panel]').count()).toBeGreaterThan(0);
    expect(admin.seen.filter((s) => s === 'catalog requested')).toHaveLength(1);
    expect(admin.seen.indexOf('catalog requested')).toBeLessThan(admin.seen.indexOf('code released'));
    // the sign-up link is for guests: a signed-in page does not ask whether sign-up is open
    expect(admin.seen).not.toContain('registration requested');
    await admin.context.close();

    // a reader is refused the page, and nothing is asked of the monitoring API on their behalf
    const reader = await watch('user');
    await expect.poll(() => reader.page.locator('h1').innerText()).not.toBe('');
    await reader.page.waitForTimeout(300);
    expect(reader.seen).not.toContain('catalog requested');
    await reader.context.close();
  });
});
