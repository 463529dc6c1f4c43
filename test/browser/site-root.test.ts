import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';

/**
 * The README's URL, the e-mail's "View Full Report" button and the Telegram link all land on `/`:
 * it is the app (it was a JSON 403), with its icon; a closed sign-up says so on the sign-up page.
 */
let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv({ env: { REGISTRATION: 'closed' } });
});
afterAll(async () => {
  await env?.close();
});

describe.sequential('the site root and a closed sign-up in Chromium', () => {
  it('opens / as the app, with the CSP header and a favicon', async () => {
    const { page, context } = await env.newContext();
    const res = await page.goto('/');
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("default-src 'self'");
    await expect.poll(() => page.locator('#root').innerText()).not.toBe('');
    const icon = await page.request.get('/favicon.ico');
    expect(icon.status()).toBe(200);
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
    expect((await page.request.get('/favicon.svg')).status()).toBe(200);
    await env.screenshot(page, 'site-root-desktop');
    await context.close();
  });

  it('shows on the sign-up page that registration is closed, in English on a phone and in zh-TW', async () => {
    const { page, context } = await env.newContext({ viewport: VIEWPORTS.phone });
    await page.goto('/register');
    await expect
      .poll(() => page.getByRole('status').innerText())
      .toBe('Sign-up is closed on this site. An administrator creates accounts.');
    expect(await page.locator('input[name="password"]').count()).toBe(0);
    await env.screenshot(page, 'register-closed-phone');
    await context.close();
    // the language picker is in the desktop header (the phone's is behind the menu)
    const desk = await env.newContext();
    await desk.page.goto('/register');
    await expect.poll(() => desk.page.getByRole('status').count()).toBe(1);
    await desk.page.getByLabel('Language').selectOption('zh-TW');
    await expect
      .poll(() => desk.page.getByRole('status').innerText())
      .toBe('本站目前不開放註冊，帳號由管理員建立。');
    await env.screenshot(desk.page, 'register-closed-zh-TW-desktop');
    await desk.context.close();
  });

  it('offers no sign-up link anywhere when registration is closed: header, phone menu, sign-in page', async () => {
    const signUpLinks = (page: import('playwright-core').Page) => page.locator('a[href="/register"]').count();
    // desktop, on the sign-in page: the header's "Sign in" is there, "Create account" is not
    const desk = await env.newContext();
    await desk.page.goto('/login');
    const nav = desk.page.locator('#site-nav');
    await expect.poll(() => nav.getByRole('link', { name: 'Sign in' }).count()).toBe(1);
    // the link would show until the site's registration answer arrives: it is gone once it has
    await expect.poll(() => signUpLinks(desk.page)).toBe(0);
    await desk.page.waitForTimeout(300);
    expect(await signUpLinks(desk.page)).toBe(0);
    expect(await desk.page.getByText('No account yet?').count()).toBe(0);
    expect(await desk.page.locator('input[name="password"]').count()).toBe(1);
    await env.screenshot(desk.page, 'login-registration-closed-desktop');
    await desk.page.getByLabel('Language').selectOption('zh-TW');
    await expect.poll(() => nav.getByRole('link', { name: '登入' }).count()).toBe(1);
    expect(await desk.page.getByRole('link', { name: '建立帳號' }).count()).toBe(0);
    await env.screenshot(desk.page, 'login-registration-closed-zh-TW');
    await desk.context.close();

    // phone: the menu holds the sign-in link only
    const phone = await env.newContext({ viewport: VIEWPORTS.phone });
    await phone.page.goto('/articles');
    await phone.page.getByRole('button', { name: 'Menu' }).click();
    const menu = phone.page.locator('#site-nav');
    await expect.poll(() => menu.getByRole('link', { name: 'Sign in' }).isVisible()).toBe(true);
    await expect.poll(() => signUpLinks(phone.page)).toBe(0);
    await env.screenshot(phone.page, 'nav-registration-closed-phone');
    await phone.context.close();
  });
});
