import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

/**
 * Pages whose code loads on first visit: the code is requested while the session is still being
 * checked (not after), and a page whose code cannot be loaded says so and offers to reload, where
 * the whole app used to go blank.
 */
let env: BrowserEnv;

beforeAll(async () => {
  env = await startBrowserEnv();
});
afterAll(async () => {
  await env?.close();
});

describe('pages loaded on first visit', () => {
  it("asks for the page's code before the session check has answered", async () => {
    const { page, context } = await env.newContext({ as: 'user' });
    const order: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path === '/api/proxy/auth/me' || /\/assets\/settings-page-[^/]+\.js$/.test(path))
        order.push(`request ${path.includes('settings') ? 'code' : 'session'}`);
    });
    page.on('requestfinished', (r) => {
      if (new URL(r.url()).pathname === '/api/proxy/auth/me') order.push('session answered');
    });
    await page.goto('/settings');
    await expect.poll(() => page.locator('h1').count()).toBeGreaterThan(0);
    expect(order).toContain('request code');
    expect(order.indexOf('request code')).toBeLessThan(order.indexOf('session answered'));
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
});
