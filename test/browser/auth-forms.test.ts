import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

let env: BrowserEnv;
let email: string;

beforeAll(async () => {
  env = await startBrowserEnv();
  email = `known-${Date.now()}@example.test`;
  await env.api.login('user', email); // an account with password-123
});
afterAll(async () => {
  await env?.close();
});

const alerts = (page: Page) => page.locator('form [role="alert"]').allInnerTexts();
async function signIn(page: Page, address: string, password: string) {
  await page.getByLabel('E-mail').fill(address);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe.sequential('sign-in and sign-up forms in Chromium', () => {
  it('a wrong password is explained on the form; the right one follows a same-site next only', async () => {
    const { page, context } = await env.newContext();
    await page.goto('/login?next=%2Freports');
    await signIn(page, email, 'wrong-password');
    await expect.poll(() => alerts(page)).toEqual(['E-mail or password is wrong.']);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);

    await signIn(page, email, 'password-123');
    await page.waitForURL('**/reports');
    await expect.poll(() => page.getByTestId('user-name').innerText()).toBe(email);
    await context.close();

    // a next pointing to another site is not followed
    const other = await env.newContext();
    await other.page.goto('/login?next=%2F%2Fevil.example.test%2F');
    await signIn(other.page, email, 'password-123');
    await other.page.waitForURL('**/articles');
    expect(new URL(other.page.url()).host).toBe(new URL(env.webUrl).host);
    await other.context.close();
  });

  it('registering a known e-mail is explained on the form, in the chosen language too', async () => {
    const { page, context } = await env.newContext();
    await page.goto('/register');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('password-456');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => alerts(page)).toEqual(['An account with this e-mail already exists.']);
    expect(new URL(page.url()).pathname).toBe('/register');

    await page.getByLabel('Language').selectOption('zh-TW');
    await page.getByLabel('電子郵件').fill(email);
    await page.getByLabel('密碼').fill('password-456');
    await page.getByRole('button', { name: '建立帳號' }).click();
    await expect.poll(() => alerts(page)).toEqual(['此電子郵件已有帳號。']);
    await context.close();
  });
});
