import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';
import { WebhookReceiver } from '../webhooks/receiver.js';

/**
 * Admin → Catalog → Webhooks in Chromium, in en and zh-TW: the admin adds an endpoint (a receiver
 * on loopback), copies its secret the one time it is shown, a failed run is delivered to it signed
 * with that secret, the deliveries table shows it and resends it; a private address is refused with
 * the translated message; the admin disables and deletes the endpoint. Desktop and phone screenshots.
 */
const LOCALES = ['en', 'zh-TW'] as const;
type Locale = (typeof LOCALES)[number];
const T = {
  en: {
    title: 'Webhooks',
    url: 'Receiver URL',
    add: 'Add webhook',
    runFailed: 'Run failed',
    deliveries: 'Deliveries',
    delivered: 'delivered',
    resend: 'Resend',
    dismiss: 'I have copied it',
    refused: 'This address may not receive webhooks',
    enabled: 'Enabled',
    delete: 'Delete',
  },
  'zh-TW': {
    title: 'Webhook 通知',
    url: '接收端網址',
    add: '新增 Webhook',
    runFailed: '執行失敗',
    deliveries: '傳送紀錄',
    delivered: '已送達',
    resend: '重新傳送',
    dismiss: '我已複製',
    refused: '此位址不能接收 Webhook',
    enabled: '啟用',
    delete: '刪除',
  },
} satisfies Record<Locale, Record<string, string>>;

let env: BrowserEnv;
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  env = await startBrowserEnv({
    env: { FETCH_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAY_SECONDS: '1' },
  });
}, 180_000);
afterAll(async () => {
  await env?.close();
  await receiver?.stop();
});

const section = (page: Page) => page.getByTestId('webhooks');

async function catalogAs(locale: Locale, viewport: { width: number; height: number }) {
  const session = await env.newContext({ as: 'admin', viewport });
  await session.context.addInitScript((l) => localStorage.setItem('locale', l), locale);
  await session.page.goto('/admin/catalog');
  await section(session.page).getByRole('heading', { name: T[locale].title, exact: true }).waitFor();
  return session;
}

describe.sequential.each(LOCALES)('admin webhooks in Chromium (%s)', (locale) => {
  const t = T[locale];

  it('add, secret once, a signed delivery listed and resent, refused address, disable, delete', async () => {
    const { context, page } = await catalogAs(locale, VIEWPORTS.desktop);
    const s = section(page);
    const path = `/hook-${locale}`;
    await s.getByLabel(t.url).fill(`${receiver.url}${path}`);
    await s.getByLabel(t.runFailed).check();
    await s.getByRole('button', { name: t.add }).click();
    const secretBox = page.getByTestId('webhook-secret');
    await secretBox.waitFor();
    const secret = (await secretBox.locator('code').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    receiver.secrets.set(path, secret);
    await s.scrollIntoViewIfNeeded();
    await env.screenshot(page, `webhooks-created-${locale}`);
    await s.getByRole('button', { name: t.dismiss }).click();
    await expect.poll(() => secretBox.count()).toBe(0);

    // a failed run is delivered, signed with the secret the page showed
    await env.api.container.services.runs.runToEnd('metrics', 'test', () =>
      Promise.reject(new Error(`away ${locale}`)),
    );
    await expect
      .poll(() => receiver.received.filter((r) => r.path === path).length, { timeout: 20_000 })
      .toBe(1);
    expect(receiver.received.find((r) => r.path === path)!.verified).toBe(true);

    const row = s.getByTestId('webhooks-row').filter({ hasText: path });
    await row.getByRole('button', { name: t.deliveries }).click();
    const delivery = s.getByTestId('webhook-delivery');
    await expect.poll(() => delivery.first().innerText(), { timeout: 20_000 }).toContain(t.delivered);
    expect(await delivery.first().innerText()).toContain('200');
    await env.screenshot(page, `webhooks-deliveries-${locale}`);
    await delivery.first().getByRole('button', { name: t.resend }).click();
    await expect
      .poll(() => receiver.received.filter((r) => r.path === path).length, { timeout: 20_000 })
      .toBe(2);
    await expect.poll(() => delivery.first().innerText(), { timeout: 20_000 }).toMatch(/\b2\b/);

    // a private address is refused, in the page's language
    await s.getByLabel(t.url).fill('http://169.254.169.254/latest');
    await s.getByRole('button', { name: t.add }).click();
    await expect.poll(() => s.getByRole('alert').innerText()).toContain(t.refused);
    await env.screenshot(page, `webhooks-refused-${locale}`);

    // the switch follows the stored state (it changes once the list is read again)
    const enabled = row.getByLabel(new RegExp(t.enabled));
    await enabled.click();
    await expect.poll(() => enabled.isChecked()).toBe(false);
    await expect
      .poll(
        async () =>
          (await env.api.container.services.webhooks.list()).find((w) => w.url.endsWith(path))?.enabled,
      )
      .toBe(false);
    await row.getByRole('button', { name: t.delete }).click();
    await expect.poll(() => row.count()).toBe(0);
    await context.close();
  });

  it('on a phone: the section fits the screen', async () => {
    const { context, page } = await catalogAs(locale, VIEWPORTS.phone);
    const s = section(page);
    await s.getByLabel(t.url).fill(`${receiver.url}/phone-${locale}`);
    await s.getByRole('button', { name: t.add }).click();
    await page.getByTestId('webhook-secret').waitFor();
    await s.scrollIntoViewIfNeeded();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await env.screenshot(page, `webhooks-created-${locale}-phone`);
    await context.close();
  });
});
