import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';
import { seedReaderData, type ReaderData } from './helpers/seed.js';
import { makeArticles, makeTopic } from '../helpers/article-factories.js';

/**
 * The reader view's keys (o/v open the original, u/Esc back to the list as it was, / to the list's
 * search), guests told to sign in on f/m, opening an article marking it read in the list, and
 * "mark all as read" asking with the count and offering undo, in en and zh-TW.
 */
let env: BrowserEnv;
let data: ReaderData;

beforeAll(async () => {
  env = await startBrowserEnv();
  data = await seedReaderData(env.api.container.database.db);
});
afterAll(async () => {
  await env?.close();
});

const card = (page: Page, id: string) => page.locator(`article[data-article-id="${id}"]`);
const focusedCard = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('article')?.getAttribute('data-article-id') ?? null);
const toZh = (page: Page) => page.getByLabel('Language').selectOption('zh-TW');

describe.sequential('reader keys, read on open, mark all with undo', () => {
  it('opening an article marks it read, and the list shows it read when the reader comes back', async () => {
    const { page, context } = await env.newContext({ as: 'user' });
    const list = `/articles?topic=${data.topic.id}&sort=title&order=asc`;
    await page.goto(list);
    await expect.poll(() => card(page, data.mid.id).getAttribute('data-read')).toBe('false');
    await card(page, data.mid.id).getByTestId('article-link').click();
    await page.waitForURL(`**/articles/${data.mid.id}?from=*`);
    await expect.poll(() => page.locator('article.article-detail').getAttribute('data-read')).toBe('true');
    await page.getByTestId('back-link').click();
    await page.waitForURL((u) => u.pathname === '/articles');
    // at once from the cache, and still after the list's refetch
    await expect.poll(() => card(page, data.mid.id).getAttribute('data-read')).toBe('true');
    await page.waitForLoadState('networkidle');
    expect(await card(page, data.mid.id).getAttribute('data-read')).toBe('true');
    expect(await card(page, data.low.id).getAttribute('data-read')).toBe('false');
    // the unread-only list leaves it out
    await page.goto(`${list}&unread=1`);
    await expect.poll(() => card(page, data.low.id).count()).toBe(1);
    expect(await card(page, data.mid.id).count()).toBe(0);
    await context.close();
  });

  it('o and v open the original, u and Esc go back to the list with its state and focus, / searches that list', async () => {
    const { page, context } = await env.newContext({ as: 'user' });
    const list = `/articles?topic=${data.topic.id}&sort=title&order=desc`;
    await page.goto(list);
    await expect.poll(() => card(page, data.high.id).count()).toBe(1);
    await card(page, data.high.id).getByTestId('article-link').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/articles/${data.high.id}?from=*`);
    await expect.poll(() => page.locator('h1').innerText()).toBe(data.high.title);

    // the original is another site: answered here, so the new tab's address is what was opened
    await context.route('https://news.example.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>original</title>' }),
    );
    for (const key of ['o', 'v']) {
      const opened = context.waitForEvent('page');
      await page.keyboard.press(key);
      const original = await opened;
      await original.waitForLoadState();
      expect(original.url()).toBe(data.high.url);
      // noopener: the original cannot reach back into the app
      expect(await original.evaluate(() => window.opener)).toBeNull();
      await original.close();
    }

    const backTo = async (key: string) => {
      await page.keyboard.press(key);
      await page.waitForURL((u) => u.pathname === '/articles');
      const url = new URL(page.url());
      expect(url.searchParams.get('sort')).toBe('title');
      expect(url.searchParams.get('order')).toBe('desc');
      expect(url.searchParams.get('topic')).toBe(data.topic.id);
      await expect.poll(() => focusedCard(page)).toBe(data.high.id);
    };
    await backTo('u');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/articles/${data.high.id}?from=*`);
    await expect.poll(() => page.locator('h1').innerText()).toBe(data.high.title);
    await backTo('Escape');

    // "/" in the reader view: the list it came from, its search focused, nothing of its state lost
    await card(page, data.high.id).getByTestId('article-link').press('Enter');
    await page.waitForURL(`**/articles/${data.high.id}?from=*`);
    await expect.poll(() => page.locator('h1').innerText()).toBe(data.high.title);
    await page.keyboard.press('/');
    await page.waitForURL((u) => u.pathname === '/articles');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('article-search');
    expect(new URL(page.url()).searchParams.get('order')).toBe('desc');
    await page.keyboard.type('photonic');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('photonic');
    expect(new URL(page.url()).searchParams.get('topic')).toBe(data.topic.id);
    await context.close();
  });

  it('a guest pressing f or m is told to sign in, in the list and the reader view (en, zh-TW)', async () => {
    const { page, context } = await env.newContext();
    await page.goto(`/articles?topic=${data.topic.id}`);
    await expect.poll(() => card(page, data.high.id).count()).toBe(1);
    const hint = page.getByTestId('sign-in-hint');
    expect(await hint.count()).toBe(0);
    await page.keyboard.press('j');
    await page.keyboard.press('f');
    await expect.poll(() => hint.innerText()).toContain('Sign in to keep favorites');
    expect(await hint.getByRole('link').getAttribute('href')).toMatch(/^\/login\?next=%2Farticles/);
    await env.screenshot(page, 'reader-guest-hint-en');

    await page.goto(`/articles/${data.high.id}`);
    await expect.poll(() => page.locator('h1').innerText()).toBe(data.high.title);
    await toZh(page);
    expect(await hint.count()).toBe(0);
    await page.keyboard.press('m');
    await expect.poll(() => hint.innerText()).toContain('登入後即可收藏文章並標記已讀');
    await env.screenshot(page, 'reader-guest-hint-zh-TW');
    await context.close();
  });

  it('mark all as read asks with the count, marks, and undo takes exactly those back (en, zh-TW, phone)', async () => {
    const db = env.api.container.database.db;
    const topic = await makeTopic(db, { name: 'Mark all topic' });
    const rows = await makeArticles(db, 5, () => ({ topicId: topic.id }));
    const { page, context } = await env.newContext({ as: 'user', viewport: VIEWPORTS.phone });
    await page.goto(`/articles?topic=${topic.id}`);
    await expect.poll(() => page.locator('article[data-read="false"]').count()).toBe(5);
    // one read before: the question counts the four unread ones
    await card(page, rows[0]!.id).getByTestId('read-toggle').click();
    await expect.poll(() => page.locator('article[data-read="false"]').count()).toBe(4);

    const button = page.getByTestId('mark-all-read');
    await button.click();
    const confirm = page.getByTestId('mark-all-confirm');
    await expect
      .poll(() => confirm.getByTestId('mark-all-question').innerText())
      .toBe('Mark the 4 unread articles of this list as read?');
    // the dialog holds the focus: Tab cycles within it; Escape closes it and nothing changes
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('confirm');
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('dialog[open]'))).toBe(true);
    }
    await env.screenshot(page, 'reader-mark-all-confirm-en-phone');
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'mark-all-read',
    );
    expect(await page.locator('article[data-read="false"]').count()).toBe(4);

    await button.click();
    await expect.poll(() => confirm.getByTestId('mark-all-question').innerText()).toContain('4');
    await confirm.getByTestId('confirm').click();
    await expect.poll(() => page.getByTestId('marked').innerText()).toContain('4 marked as read.');
    await expect.poll(() => page.locator('article[data-read="false"]').count()).toBe(0);

    await page.getByTestId('undo-mark-all').click();
    await expect.poll(() => page.getByTestId('undone').innerText()).toBe('4 marked unread again.');
    await expect.poll(() => page.locator('article[data-read="false"]').count()).toBe(4);
    // the one read before stays read
    expect(await card(page, rows[0]!.id).getAttribute('data-read')).toBe('true');

    // the language menu is folded away on a phone: the choice it stores
    await page.evaluate(() => localStorage.setItem('locale', 'zh-TW'));
    await page.reload();
    await expect.poll(() => page.locator('article[data-read="false"]').count()).toBe(4);
    await button.click();
    await expect
      .poll(() => confirm.getByTestId('mark-all-question').innerText())
      .toBe('要將此清單中 4 篇未讀文章標為已讀嗎？');
    await env.screenshot(page, 'reader-mark-all-confirm-zh-TW-phone');
    await confirm.getByRole('button', { name: '全部標為已讀' }).click();
    await expect.poll(() => page.getByTestId('marked').innerText()).toContain('已將 4 篇標為已讀');
    await env.screenshot(page, 'reader-mark-all-done-zh-TW-phone');
    await button.click();
    await expect
      .poll(() => confirm.getByTestId('mark-all-question').innerText())
      .toBe('此清單中沒有未讀文章。');
    expect(await confirm.getByTestId('confirm').isDisabled()).toBe(true);
    await confirm.getByTestId('cancel').click();
    await context.close();
  });
});
