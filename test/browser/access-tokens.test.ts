import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';

/**
 * Settings → Access tokens in Chromium, in en and zh-TW: a reader creates a read-and-write token,
 * copies it the one time it is shown (the clipboard holds it, and it works against the API), sees
 * it listed with its last use and never again with its secret, then revokes it: the API refuses it
 * at once. Screenshots on a desktop and a phone.
 */
const LOCALES = ['en', 'zh-TW'] as const;
type Locale = (typeof LOCALES)[number];
const T = {
  en: {
    title: 'Access tokens',
    name: 'Token name',
    write: 'Read and write',
    create: 'Create token',
    copy: 'Copy',
    copied: 'Copied.',
    done: 'Done',
    shownOnce: 'it is shown only this once',
    lastUsed: 'Last used',
    revoke: 'Revoke',
    revoked: 'is revoked',
    empty: 'You have no tokens.',
  },
  'zh-TW': {
    title: '存取權杖',
    name: '權杖名稱',
    write: '讀取與寫入',
    create: '建立權杖',
    copy: '複製',
    copied: '已複製。',
    done: '完成',
    shownOnce: '它只會顯示這一次',
    lastUsed: '上次使用',
    revoke: '撤銷',
    revoked: '已撤銷',
    empty: '您還沒有權杖。',
  },
} satisfies Record<Locale, Record<string, string>>;

let env: BrowserEnv;
beforeAll(async () => {
  env = await startBrowserEnv();
}, 180_000);
afterAll(() => env?.close());

async function settingsAs(locale: Locale, viewport: { width: number; height: number }) {
  const session = await env.newContext({ as: 'user', viewport });
  await session.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.webUrl });
  await session.context.addInitScript((l) => localStorage.setItem('locale', l), locale);
  await session.page.goto('/settings');
  return session;
}

const meWith = (token: string) =>
  fetch(`${env.apiUrl}/auth/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);

const card = (page: Page) => page.getByTestId('tokens-card');

describe.sequential.each(LOCALES)('access tokens in Chromium (%s)', (locale) => {
  const t = T[locale];

  it('create, copy once, see it listed without its secret, revoke: refused at once', async () => {
    const { context, page } = await settingsAs(locale, VIEWPORTS.desktop);
    await card(page).getByRole('heading', { name: t.title }).waitFor();
    await expect.poll(() => card(page).innerText()).toContain(t.empty);

    await card(page).getByLabel(t.name).fill(`phone reader ${locale}`);
    await card(page).getByLabel(t.write).check();
    await card(page).getByRole('button', { name: t.create }).click();
    const value = page.getByTestId('token-value');
    await value.waitFor();
    const token = await value.inputValue();
    expect(token).toMatch(/^ais_pat_[0-9A-Za-z]{10}_[0-9A-Za-z]{40}$/);
    expect(await page.getByTestId('token-secret').innerText()).toContain(t.shownOnce);
    await card(page).getByRole('button', { name: t.copy, exact: true }).click();
    await expect.poll(() => page.getByTestId('token-secret').innerText()).toContain(t.copied);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await env.screenshot(page, `tokens-created-${locale}`);

    // the copied token works against the API, which records its use
    expect(await meWith(token)).toBe(200);

    await card(page).getByRole('button', { name: t.done }).click();
    await expect.poll(() => page.getByTestId('token-secret').count()).toBe(0);
    await page.reload();
    const row = page.locator(`[data-testid="token-row"][data-name="phone reader ${locale}"]`);
    await expect.poll(() => row.innerText()).toContain(t.lastUsed);
    expect(await row.innerText()).toContain(t.write);
    // shown once: nothing on the page holds the secret any more
    expect(await page.content()).not.toContain(token.slice(-40));
    await env.screenshot(page, `tokens-listed-${locale}`);

    await row.getByRole('button', { name: t.revoke }).click();
    const dialog = page.getByTestId('revoke-dialog');
    await dialog.waitFor();
    await env.screenshot(page, `tokens-revoke-dialog-${locale}`);
    await dialog.getByTestId('confirm').click();
    await expect.poll(() => card(page).innerText()).toContain(t.revoked);
    await expect.poll(() => row.count()).toBe(0);
    expect(await meWith(token)).toBe(401);
    await context.close();
  });

  it('on a phone: the card and a new secret fit the screen', async () => {
    const { context, page } = await settingsAs(locale, VIEWPORTS.phone);
    await card(page).getByLabel(t.name).fill('assistant');
    await card(page).getByRole('button', { name: t.create }).click();
    await page.getByTestId('token-value').waitFor();
    await card(page).scrollIntoViewIfNeeded();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await env.screenshot(page, `tokens-created-${locale}-phone`);
    await card(page).getByRole('button', { name: t.done }).click();
    await env.screenshot(page, `tokens-listed-${locale}-phone`);
    await context.close();
  });
});
