import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { providers } from '../../src/infrastructure/db/schema/index.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import { VIEWPORTS, startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

/**
 * Editing a provider's address to another host: the form says that the stored key is not sent there
 * and is removed on save unless a new key is typed; saved without one, the row shows no key and the
 * new address receives none. Two loopback peers are the two hosts.
 */
let env: BrowserEnv;
let first: OpenAiPeer;
let second: OpenAiPeer;
const db = () => env.api.container.database.db;
const TEXT = {
  en: {
    edit: 'Edit',
    save: 'Save',
    key: 'API key',
    url: 'Base URL',
    notice: /another host/,
    hasKey: 'key set',
  },
  'zh-TW': {
    edit: '編輯',
    save: '儲存',
    key: 'API 金鑰',
    url: null,
    notice: /另一個主機/,
    hasKey: '已設定金鑰',
  },
} as const;

beforeAll(async () => {
  first = await new OpenAiPeer().start();
  second = await new OpenAiPeer().start();
  env = await startBrowserEnv();
});
afterAll(async () => {
  await env?.close();
  await first?.stop();
  await second?.stop();
});

async function addProvider(name: string) {
  const [p] = await db()
    .insert(providers)
    .values({ name, type: 'text', baseUrl: first.baseUrl, model: 'm', apiKey: 'sk-bound-to-first' })
    .returning();
  return p!;
}

async function openEdit(page: Page, name: string, lang: keyof typeof TEXT) {
  const section = page.locator('section[aria-labelledby="providers-title"]');
  const row = section.locator('tbody tr', { hasText: name }).first();
  await row.getByRole('button', { name: `${TEXT[lang].edit} ${name}` }).click();
  return { row, form: page.getByRole('form', { name: `${TEXT[lang].edit} ${name}` }) };
}

describe.sequential('a provider moved to another host loses its key, and the form says so', () => {
  it('en, desktop: the notice follows the address and the key field; saved without a key, none is kept', async () => {
    const provider = await addProvider('Moving provider');
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/catalog');
    const { row, form } = await openEdit(page, 'Moving provider', 'en');
    const url = form.locator('input[name="base_url"]');
    const key = form.getByLabel(TEXT.en.key);
    const notice = form.getByRole('status');

    // the same origin, another path: nothing to say
    await url.fill(`${first.baseUrl}/other`);
    expect(await notice.count()).toBe(0);
    await url.fill(second.baseUrl);
    await expect.poll(() => notice.innerText()).toMatch(TEXT.en.notice);
    expect(await key.getAttribute('aria-describedby')).toBe(await notice.getAttribute('id'));
    await env.screenshot(page, 'provider-key-moves-desktop-en');
    await key.fill('sk-typed');
    await expect.poll(() => notice.count()).toBe(0);
    await key.fill('');
    await expect.poll(() => notice.count()).toBe(1);

    await form.getByRole('button', { name: TEXT.en.save }).click();
    await expect.poll(() => row.innerText()).toContain(second.baseUrl);
    expect(await row.innerText()).not.toContain(TEXT.en.hasKey);
    const [stored] = await db().select().from(providers).where(eq(providers.id, provider.id));
    expect(stored).toMatchObject({ baseUrl: second.baseUrl, apiKey: null });

    let auth: string | undefined = 'unset';
    second.chat = (_call, req) => {
      auth = req.headers.authorization;
      return 'ok';
    };
    await row.getByRole('button', { name: 'Test: Moving provider' }).click();
    await expect.poll(() => auth).not.toBe('unset');
    expect(auth ?? '').not.toContain('sk-bound-to-first');
    await context.close();
  });

  it('zh-TW on desktop and on a phone: the notice in Traditional Chinese, on screen', async () => {
    await addProvider('移動的供應商');
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      const { page, context } = await env.newContext({ as: 'admin', viewport });
      await page.addInitScript(() => localStorage.setItem('locale', 'zh-TW'));
      await page.goto('/admin/catalog');
      const { form } = await openEdit(page, '移動的供應商', 'zh-TW');
      await form.locator('input[name="base_url"]').fill(second.baseUrl);
      const notice = form.getByRole('status');
      await expect.poll(() => notice.innerText()).toMatch(TEXT['zh-TW'].notice);
      const box = (await notice.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      await notice.scrollIntoViewIfNeeded();
      const phone = viewport.width === VIEWPORTS.phone.width;
      await env.screenshot(page, `provider-key-moves-${phone ? 'phone' : 'desktop'}-zh-TW`);
      await context.close();
    }
  });
});
