import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { providers, topics } from '../../src/infrastructure/db/schema/index.js';
import { makeTopic } from '../helpers/article-factories.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import { VIEWPORTS, startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

let env: BrowserEnv;
let peer: OpenAiPeer;
const db = () => env.api.container.database.db;

beforeAll(async () => {
  peer = await new OpenAiPeer().start();
  env = await startBrowserEnv();
});
afterAll(async () => {
  await env?.close();
  await peer?.stop();
});

const rowOf = (section: Locator, name: string) => section.locator('tbody tr', { hasText: name }).first();
const zhTW = (page: Page) => page.addInitScript(() => localStorage.setItem('locale', 'zh-TW'));
const sectionsOf = (page: Page) => ({
  topics: page.locator('section[aria-labelledby="topics-title"]'),
  providers: page.locator('section[aria-labelledby="providers-title"]'),
});

describe.sequential('admin catalog editing, provider test, phone tables, settings in Chromium', () => {
  it('edits a topic and a provider (key unchanged unless typed) and tests it against a local peer', async () => {
    const topic = await makeTopic(db(), { name: 'Oceanography', slug: `ocean-${Date.now()}` });
    const [provider] = await db()
      .insert(providers)
      .values({
        name: 'Local LLM',
        type: 'text',
        // the peer's own origin: a key stays with its provider while the address keeps its origin
        baseUrl: `${new URL(peer.baseUrl).origin}/old/v1`,
        model: 'old-model',
        apiKey: 'sk-keep-this-key',
      })
      .returning();
    let auth: string | undefined;
    peer.chat = (_call, req) => {
      auth = req.headers.authorization;
      return 'ok';
    };

    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/catalog');
    const s = sectionsOf(page);

    // a stale refusal: a duplicate topic name is refused...
    await s.topics.locator('form').last().getByLabel('Name').fill('Oceanography');
    await s.topics.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => s.topics.getByRole('alert').count()).toBe(1);

    // ...and a later successful write (an edit) clears it
    await rowOf(s.topics, 'Oceanography').getByRole('button', { name: 'Edit Oceanography' }).click();
    const topicForm = page.getByRole('form', { name: 'Edit Oceanography' });
    await topicForm.getByLabel('Name').fill('Ocean Science');
    await topicForm.getByLabel('Description').fill('Seas and currents');
    await topicForm.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => rowOf(s.topics, 'Ocean Science').innerText()).toContain('Seas and currents');
    await expect.poll(() => s.topics.getByRole('alert').count()).toBe(0);
    const [storedTopic] = await db().select().from(topics).where(eq(topics.id, topic.id));
    expect(storedTopic).toMatchObject({ name: 'Ocean Science', description: 'Seas and currents' });

    // the provider: point it at the peer, new model; the key field stays empty (write-only)
    await rowOf(s.providers, 'Local LLM').getByRole('button', { name: 'Edit Local LLM' }).click();
    const form = page.getByRole('form', { name: 'Edit Local LLM' });
    expect(await form.getByLabel('API key').inputValue()).toBe('');
    await form.getByLabel('Base URL').fill(peer.baseUrl);
    await form.getByLabel('Model', { exact: true }).fill('peer-model');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => rowOf(s.providers, 'Local LLM').innerText()).toContain('peer-model');
    const [stored] = await db().select().from(providers).where(eq(providers.id, provider!.id));
    expect(stored).toMatchObject({ baseUrl: peer.baseUrl, model: 'peer-model', apiKey: 'sk-keep-this-key' });
    expect(await page.content()).not.toContain('sk-keep-this-key');

    // Test: one request to the peer with the kept key; model and latency shown
    peer.chatCalls = [];
    await rowOf(s.providers, 'Local LLM').getByRole('button', { name: 'Test: Local LLM' }).click();
    await expect
      .poll(() => rowOf(s.providers, 'Local LLM').getByTestId('provider-test-result').innerText())
      .toMatch(/^OK: peer-model answered in \d+ ms$/);
    expect(peer.chatCalls).toHaveLength(1);
    expect(auth).toBe('Bearer sk-keep-this-key');
    await env.screenshot(page, 'admin-catalog-edit-desktop-en');

    // a failing provider: the provider's own message is shown
    peer.chat = () => ({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    await rowOf(s.providers, 'Local LLM').getByRole('button', { name: 'Test: Local LLM' }).click();
    await expect
      .poll(() => rowOf(s.providers, 'Local LLM').getByTestId('provider-test-result').innerText())
      .toContain('Incorrect API key provided');
    await context.close();
  });

  it('keeps the catalog tables readable on a phone (en and zh-TW): URL and actions on screen', async () => {
    const topic = await makeTopic(db(), { name: 'Phone Topic', slug: `phone-${Date.now()}` });
    await db().insert(providers).values({
      name: 'Phone provider',
      type: 'multimodal',
      baseUrl: 'https://a-rather-long-provider-host.example.test/openai/compatible/v1',
      model: 'some-long-model-name-2026',
    });
    void topic;
    for (const lang of ['en', 'zh-TW'] as const) {
      const { page, context } = await env.newContext({ as: 'admin', viewport: VIEWPORTS.phone });
      if (lang === 'zh-TW') await zhTW(page);
      await page.goto('/admin/catalog');
      const s = sectionsOf(page);
      const row = rowOf(s.providers, 'Phone provider');
      await row.waitFor();
      // nothing scrolls sideways, and every action button is inside the viewport
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      for (const button of await row.getByRole('button').all()) {
        const box = (await button.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
      }
      const url = row.locator('.url-cell');
      const urlBox = (await url.boundingBox())!;
      expect(urlBox.x + urlBox.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
      await env.screenshot(page, `admin-catalog-phone-${lang}`);
      if (lang === 'zh-TW') {
        await row.getByRole('button', { name: '編輯 Phone provider' }).click();
        await page.getByRole('form', { name: '編輯 Phone provider' }).waitFor();
        await env.screenshot(page, 'admin-catalog-edit-phone-zh-TW');
      }
      await context.close();
    }
  });

  it('the catalog page in Traditional Chinese on a desktop', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await zhTW(page);
    await page.goto('/admin/catalog');
    const s = sectionsOf(page);
    await rowOf(s.providers, 'Phone provider').waitFor();
    expect(await s.providers.locator('thead th').last().innerText()).toBe('操作');
    await rowOf(s.providers, 'Phone provider').getByRole('button', { name: '編輯 Phone provider' }).click();
    expect(
      await page
        .getByRole('form', { name: '編輯 Phone provider' })
        .getByLabel('API 金鑰')
        .getAttribute('placeholder'),
    ).toBe('尚未儲存金鑰');
    await env.screenshot(page, 'admin-catalog-desktop-zh-TW');
    await context.close();
  });

  it('other admin pages on a phone: nothing overflows the page', async () => {
    const { page, context } = await env.newContext({ as: 'admin', viewport: VIEWPORTS.phone });
    for (const path of ['/admin/metrics', '/admin/jobs']) {
      await page.goto(path);
      await page.locator('main h1, h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
      await env.screenshot(page, `admin-phone${path.replace(/\//g, '-')}-en`);
    }
    await context.close();
  });

  it('settings without SMTP: e-mail off and disabled with the reason; a bad chat id is refused', async () => {
    for (const lang of ['en', 'zh-TW'] as const) {
      for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
        const { page, context } = await env.newContext({ as: 'user', viewport });
        if (lang === 'zh-TW') await zhTW(page);
        await page.goto('/settings');
        const email = page.locator('input[name="email_enabled"]');
        await email.waitFor();
        expect(await email.isChecked()).toBe(false);
        expect(await email.isDisabled()).toBe(true);
        expect(await page.getByTestId('email-unavailable').innerText()).toContain('SMTP_URL');
        // the notification form (the account card beside it has a form of its own)
        const form = page.getByTestId('notification-form');
        const chat = form.locator('input[name="messenger_chat_id"]');
        await chat.fill('hello world');
        await form.locator('button[type="submit"]').click();
        const alert = page
          .locator('.settings-page [role="alert"], [data-testid="notification-form"] [role="alert"]')
          .first();
        await expect
          .poll(() => alert.innerText())
          .toContain(lang === 'en' ? 'Enter a numeric chat id' : '請輸入數字聊天 ID');
        expect(await chat.getAttribute('aria-invalid')).toBe('true');
        const kind = viewport === VIEWPORTS.phone ? 'phone' : 'desktop';
        await env.screenshot(page, `settings-no-smtp-${kind}-${lang}`);
        // a channel name is accepted
        await chat.fill('@my_channel');
        await form.locator('button[type="submit"]').click();
        await expect.poll(() => form.locator('[role="status"]').count()).toBe(1);
        await context.close();
      }
    }
  });
});
