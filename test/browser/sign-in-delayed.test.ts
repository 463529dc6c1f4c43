import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWPORTS, startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

/**
 * After too many failed sign-ins on one account from this browser's address, the sign-in form says
 * that the account asks for a short wait, in English and in Traditional Chinese, on a phone too.
 */
let env: BrowserEnv;

beforeAll(async () => {
  env = await startBrowserEnv();
});
afterAll(async () => {
  await env?.close();
});

const LOCALES = {
  en: { email: 'E-mail', password: 'Password', submit: 'Sign in', says: /Too many failed sign-ins/ },
  'zh-TW': { email: '電子郵件', password: '密碼', submit: '登入', says: /登入失敗次數過多/ },
} as const;

describe.sequential('a delayed sign-in explained on the form', () => {
  for (const [lang, text] of Object.entries(LOCALES) as [keyof typeof LOCALES, (typeof LOCALES)['en']][]) {
    it(`${lang}: the account's wait is named, not a generic error`, async () => {
      const email = `delayed-${lang}-${Date.now()}@example.test`;
      await env.api.login('user', email);
      for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
        const { page, context } = await env.newContext({ viewport });
        if (lang === 'zh-TW') await page.addInitScript(() => localStorage.setItem('locale', 'zh-TW'));
        await page.goto('/login');
        await page.getByLabel(text.email).fill(email);
        const button = page.getByRole('button', { name: text.submit });
        const alert = page.locator('form [role="alert"]');
        // wrong passwords, one after the other, until the account asks for a wait (the 6th or 7th)
        let said = '';
        for (let i = 0; i < 12 && !text.says.test(said); i++) {
          await page.getByLabel(text.password).fill(`wrong-${i}-password`);
          await button.click();
          await expect.poll(() => button.isEnabled()).toBe(true);
          said = await alert.innerText();
        }
        expect(said).toMatch(text.says);
        expect(new URL(page.url()).pathname).toBe('/login');
        const phone = viewport.width === VIEWPORTS.phone.width;
        await env.screenshot(page, `sign-in-delayed-${phone ? 'phone' : 'desktop'}-${lang}`);
        await context.close();
      }
    });
  }
});
