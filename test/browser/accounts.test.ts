import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';

/**
 * Fills a field until the value is there: once under load the page's form was drawn again (its
 * strings' chunk arriving) right after the first fill, and the send went out with an empty field.
 */
async function fillStuck(field: Locator, value: string): Promise<void> {
  await expect
    .poll(async () => {
      await field.fill(value);
      return field.inputValue();
    })
    .toBe(value);
}
import { SmtpPeer } from '../peers/smtp-peer.js';

/**
 * Issue 25.3 in Chromium, on a fresh database with no provider: a reader changes the password
 * (the old one is refused after, the other sessions are signed out when asked); the admin resets a
 * reader's password (temporary password and one-time link) and promotes another; "forgot
 * password" by e-mail through the SMTP peer. Each journey in en and zh-TW, with screenshots.
 */
const LOCALES = ['en', 'zh-TW'] as const;
type Locale = (typeof LOCALES)[number];

const T = {
  en: {
    email: 'E-mail',
    password: 'Password',
    signIn: 'Sign in',
    current: 'Current password',
    next: 'New password',
    again: 'New password again',
    change: 'Change password',
    changedOthersOut: 'Your password is changed, and your other sessions are signed out.',
    signOutOthers: 'Sign out other sessions',
    othersOut: 'Every other session is signed out.',
    wrongPassword: 'The current password is not right.',
    search: 'Search by e-mail or name',
    reset: 'Reset password',
    temporary: 'Set a temporary password',
    link: 'Create a one-time link',
    promote: 'Make admin',
    admin: 'Admin',
    disable: 'Disable',
    disabled: 'Disabled',
    disabledMsg: 'This account is disabled. Ask an administrator.',
    lastAdminHint: 'Another admin changes your own role or state.',
    resetPage: 'Set the password and sign in',
    resetDone: 'Your new password is set. Every other session was signed out.',
    forgot: 'Forgot your password?',
    sendLink: 'Send the link',
    sent: 'If an account uses this address',
    subject: 'Reset your password',
  },
  'zh-TW': {
    email: '電子郵件',
    password: '密碼',
    signIn: '登入',
    current: '目前的密碼',
    next: '新密碼',
    again: '再次輸入新密碼',
    change: '變更密碼',
    changedOthersOut: '您的密碼已變更，其他工作階段也已登出。',
    signOutOthers: '登出其他工作階段',
    othersOut: '其他所有工作階段都已登出。',
    wrongPassword: '目前的密碼不正確。',
    search: '以電子郵件或名稱搜尋',
    reset: '重設密碼',
    temporary: '設定臨時密碼',
    link: '建立一次性連結',
    promote: '設為管理員',
    admin: '管理員',
    disable: '停用',
    disabled: '已停用',
    disabledMsg: '此帳號已停用。請聯絡管理員。',
    lastAdminHint: '您自己的角色或狀態需由另一位管理員變更。',
    resetPage: '設定密碼並登入',
    resetDone: '您的新密碼已設定。其他所有工作階段都已登出。',
    forgot: '忘記密碼？',
    sendLink: '寄出連結',
    sent: '如果有帳號使用這個地址',
    subject: '重設您的密碼',
  },
} satisfies Record<Locale, Record<string, string>>;

let env: BrowserEnv;
const smtp = new SmtpPeer();

beforeAll(async () => {
  await smtp.start();
  env = await startBrowserEnv({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'site@example.test' } });
}, 120_000);
afterAll(async () => {
  await env?.close();
  await smtp.stop();
});

/** A context in the locale, signed in through the form (the cookie the web role sets). */
async function signedIn(
  locale: Locale,
  email: string,
  password: string,
  viewport: { width: number; height: number } = VIEWPORTS.desktop,
) {
  const context = await env.browser.newContext({ baseURL: env.webUrl, viewport, locale: 'en-US' });
  await context.addInitScript((l) => localStorage.setItem('locale', l), locale);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  if (email) await signIn(page, locale, email, password);
  return { context, page };
}

async function signIn(page: Page, locale: Locale, email: string, password: string) {
  const t = T[locale];
  await page.goto('/login');
  await page.getByLabel(t.email).fill(email);
  await page.getByLabel(t.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: t.signIn, exact: true }).click();
  await page.waitForURL('**/articles');
}

/** Whether the password signs in (through the web role, as the browser does). */
async function canSignIn(email: string, password: string): Promise<number> {
  const res = await fetch(`${env.webUrl}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return res.status;
}

const closeAll = (...contexts: BrowserContext[]) => Promise.all(contexts.map((c) => c.close()));

describe.sequential.each(LOCALES)('accounts in Chromium (%s)', (locale) => {
  const t = T[locale];
  const tag = locale.toLowerCase();

  it('a reader changes the password: the old one is refused after, the other sessions are signed out', async () => {
    const email = `changer-${tag}@example.test`;
    await env.api.login('user', email); // password-123
    const laptop = await signedIn(locale, email, 'password-123');
    const phone = await signedIn(locale, email, 'password-123', VIEWPORTS.phone);

    const { page } = laptop;
    await page.goto('/settings');
    await page.getByLabel(t.current).fill('not-the-password');
    await page.getByLabel(t.next, { exact: true }).fill('a-brand-new-passphrase');
    await page.getByLabel(t.again).fill('a-brand-new-passphrase');
    await page.getByRole('button', { name: t.change }).click();
    await expect.poll(() => page.locator('.account-card [role="alert"]').innerText()).toBe(t.wrongPassword);

    await page.getByLabel(t.current).fill('password-123');
    await page.getByRole('button', { name: t.change }).click();
    await expect.poll(() => page.locator('.account-card .saved').innerText()).toBe(t.changedOthersOut);
    await env.screenshot(page, `accounts-settings-${locale}`);

    // the phone's session is over: its next call sends it to the sign-in page
    await phone.page.goto('/settings');
    await phone.page.waitForURL('**/login?next=%2Fsettings');
    await phone.page.getByRole('link', { name: t.forgot }).waitFor();
    await env.screenshot(phone.page, `accounts-signed-out-${locale}-phone`);
    // this browser goes on (its cookie holds the new token)
    await page.reload();
    await expect.poll(() => page.getByTestId('user-name').innerText()).toBe(email);
    expect(await canSignIn(email, 'password-123')).toBe(401);
    expect(await canSignIn(email, 'a-brand-new-passphrase')).toBe(200);

    // "sign out other sessions" on its own
    const other = await signedIn(locale, email, 'a-brand-new-passphrase', VIEWPORTS.phone);
    await other.page.goto('/settings');
    await page.getByRole('button', { name: t.signOutOthers }).click();
    await expect.poll(() => page.locator('.sessions .saved').innerText()).toBe(t.othersOut);
    await other.page.reload();
    await other.page.waitForURL('**/login?next=%2Fsettings');
    await closeAll(laptop.context, phone.context, other.context);
  });

  it('the admin resets a reader with a temporary password and a one-time link, and promotes another', async () => {
    const adminEmail = `boss-${tag}@example.test`;
    await env.api.login('admin', adminEmail);
    const temp = `temp-${tag}@example.test`;
    const linked = `linked-${tag}@example.test`;
    const promoted = `promoted-${tag}@example.test`;
    await env.api.login('user', temp);
    await env.api.login('user', linked);
    await env.api.login('user', promoted);
    const promotedSession = await signedIn(locale, promoted, 'password-123');

    const { context, page } = await signedIn(locale, adminEmail, 'password-123');
    await page.goto('/admin/users');
    const row = (email: string) => page.locator(`[data-testid="user-row"][data-email="${email}"]`);
    await expect.poll(() => row(adminEmail).innerText()).toContain(t.lastAdminHint);

    // search, then the temporary password: shown once, the old password refused at once
    await page.getByLabel(t.search).fill(`temp-${tag}`);
    await expect.poll(() => page.getByTestId('user-row').count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('q')).toBe(`temp-${tag}`);
    await row(temp).getByRole('button', { name: t.reset }).click();
    await page.getByTestId('reset-panel').getByRole('button', { name: t.temporary }).click();
    const password = (await page.getByTestId('reset-secret').innerText()).trim();
    expect(password).toMatch(/^[A-Za-z2-9]{16}$/);
    await env.screenshot(page, `accounts-users-reset-${locale}`);
    expect(await canSignIn(temp, 'password-123')).toBe(401);
    expect(await canSignIn(temp, password)).toBe(200);
    await page.getByRole('button', { name: locale === 'en' ? 'Close' : '關閉' }).click();

    // the one-time link: opened in the reader's browser, it sets a new password and signs in
    await page.getByLabel(t.search).fill('');
    await row(linked).getByRole('button', { name: t.reset }).click();
    await page.getByTestId('reset-panel').getByRole('button', { name: t.link }).click();
    const url = (await page.getByTestId('reset-secret').innerText()).trim();
    expect(url).toMatch(/\/reset-password#token=[\w-]{43}$/);
    const reader = await signedIn(locale, '', '');
    await reader.page.goto(new URL(url).pathname + new URL(url).hash);
    await reader.page.getByLabel(t.next, { exact: true }).fill('linked-new-passphrase');
    await reader.page.getByLabel(t.again).fill('linked-new-passphrase');
    await reader.page.getByRole('button', { name: t.resetPage }).click();
    await reader.page.waitForURL('**/settings');
    await expect.poll(() => reader.page.getByRole('status').first().innerText()).toBe(t.resetDone);
    await expect.poll(() => reader.page.getByTestId('user-name').innerText()).toBe(linked);
    expect(await canSignIn(linked, 'password-123')).toBe(401);
    // used once: the same link again is refused on the page
    await reader.page.goto(new URL(url).pathname + new URL(url).hash);
    await reader.page.getByLabel(t.next, { exact: true }).fill('linked-third-passphrase');
    await reader.page.getByLabel(t.again).fill('linked-third-passphrase');
    await reader.page.getByRole('button', { name: t.resetPage }).click();
    await expect.poll(() => reader.page.locator('form [role="alert"]').innerText()).not.toBe('');

    // promote: the reader's open session reaches the admin pages at once
    await row(promoted).getByRole('button', { name: t.promote }).click();
    await expect.poll(() => row(promoted).locator('.role-badge').innerText()).toBe(t.admin);
    await env.screenshot(page, `accounts-users-${locale}`);
    await promotedSession.page.goto('/admin/users');
    await expect.poll(() => promotedSession.page.getByTestId('user-row').count()).toBeGreaterThan(2);

    // disable: the reader's open session ends at once, and signing in says why
    const tempSession = await signedIn(locale, temp, password);
    await row(temp).getByRole('button', { name: t.disable }).click();
    await expect.poll(() => row(temp).locator('.state-badge').innerText()).toBe(t.disabled);
    await tempSession.page.goto('/settings');
    await tempSession.page.waitForURL('**/login?next=%2Fsettings');
    await tempSession.page.getByLabel(t.email).fill(temp);
    await tempSession.page.getByLabel(t.password, { exact: true }).fill(password);
    await tempSession.page.getByRole('button', { name: t.signIn, exact: true }).click();
    await expect.poll(() => tempSession.page.locator('form [role="alert"]').innerText()).toBe(t.disabledMsg);
    await tempSession.context.close();

    const phone = await signedIn(locale, adminEmail, 'password-123', VIEWPORTS.phone);
    await phone.page.goto('/admin/users');
    await expect.poll(() => phone.page.getByTestId('user-row').count()).toBeGreaterThan(2);
    await env.screenshot(phone.page, `accounts-users-${locale}-phone`);
    await closeAll(context, reader.context, promotedSession.context, phone.context);
  });

  it('forgot password: a link by e-mail in the page language, the same answer for an unknown address', async () => {
    const email = `forgot-${tag}@example.test`;
    await env.api.login('user', email);
    const { context, page } = await signedIn(locale, '', '');
    await page.goto('/login');
    await page.getByRole('link', { name: t.forgot }).click();
    await page.waitForURL('**/forgot-password');
    // the router keeps the sign-in page (which has an e-mail field too) on screen while the page's
    // code loads: its button shows that the form filled next is this page's
    await page.getByRole('button', { name: t.sendLink }).waitFor();
    await fillStuck(page.getByLabel(t.email), 'nobody@example.test');
    await page.getByRole('button', { name: t.sendLink }).click();
    // what the page shows instead, if it is not the notice (a failure then says why, with a picture);
    // twice failed here at the suite's busiest first minute, when the run started with this file:
    // the answer is waited for up to 30 s there
    await expect
      .poll(
        async () =>
          (await page.getByTestId('reset-sent').count())
            ? 'sent'
            : await page
                .locator('form [role="alert"]')
                .allInnerTexts()
                .then((a) => a.join(' ') || 'nothing yet'),
        { timeout: 30_000 },
      )
      .toBe('sent')
      .catch(async (err: unknown) => {
        await env.screenshot(page, `accounts-forgot-failed-${locale}`);
        throw new Error(
          `${String(err)}; the page: ${(await page.locator('main, body').first().innerText()).slice(0, 600)}`,
        );
      });
    const unknown = await page.getByTestId('reset-sent').innerText();
    expect(unknown).toContain(t.sent);
    await page.goto('/forgot-password');
    await fillStuck(page.getByLabel(t.email), email);
    await page.getByRole('button', { name: t.sendLink }).click();
    expect(await page.getByTestId('reset-sent').innerText()).toBe(unknown);
    await env.screenshot(page, `accounts-forgot-${locale}`);

    await expect
      .poll(() => smtp.messages.filter((m) => m.to.includes(email)).length, { timeout: 10_000 })
      .toBe(1);
    const mail = smtp.messages.find((m) => m.to.includes(email))!;
    expect(mail.subject).toBe(t.subject);
    expect(smtp.messages.some((m) => m.to.includes('nobody@example.test'))).toBe(false);
    const link = /(\/reset-password#token=[\w-]{43})/.exec(mail.text)![1]!;
    await page.goto(link);
    await page.getByLabel(t.next, { exact: true }).fill('mailed-new-passphrase');
    await page.getByLabel(t.again).fill('mailed-new-passphrase');
    await page.getByRole('button', { name: t.resetPage }).click();
    await page.waitForURL('**/settings');
    expect(await canSignIn(email, 'mailed-new-passphrase')).toBe(200);
    await context.close();
  });
});
