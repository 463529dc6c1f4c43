import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBrowserEnv, type BrowserEnv } from './helpers/browser.js';
import { seedReaderData, type ReaderData } from './helpers/seed.js';
import { makeArticles, makeTopic } from '../helpers/article-factories.js';

let env: BrowserEnv;
let data: ReaderData;

beforeAll(async () => {
  env = await startBrowserEnv();
  data = await seedReaderData(env.api.container.database.db);
});
afterAll(async () => {
  await env?.close();
});

const titles = (page: Page) => page.locator('[data-testid="article-list"] article h2').allInnerTexts();

describe.sequential('reader journey in Chromium', () => {
  it('registers, subscribes, favorites, filters favorites, sorts by citations and follows a report citation', async () => {
    const { page, context } = await env.newContext();
    const email = `reader-${Date.now()}@example.test`;

    // register: lands on the settings page, signed in (the token is an HttpOnly cookie)
    await page.goto('/register');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('password-123');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/settings');
    await expect.poll(() => page.getByTestId('user-name').innerText()).toBe(email);
    const cookie = (await context.cookies()).find((c) => c.name === 'ai_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(await page.evaluate(() => document.cookie)).not.toContain('ai_session');

    // subscribe to the topic
    const row = page.locator(`li[data-topic-id="${data.topic.id}"]`);
    await row.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => row.getByRole('button').getAttribute('aria-pressed')).toBe('true');
    await page.reload();
    await expect.poll(() => row.getByRole('button').innerText()).toBe('Unsubscribe');

    // notification settings: messenger on with a chat id, Traditional Chinese, the feed apps' summary
    // block (on by default) off; kept after a reload
    const summaryBlock = page.getByLabel('Show the summary above each article in feed apps');
    expect(await summaryBlock.isChecked()).toBe(true);
    await summaryBlock.uncheck();
    await page.getByLabel('Send the weekly reports to Telegram').check();
    await page.getByLabel('Telegram chat id').fill('123456789');
    await page.getByLabel('Language of the notifications').selectOption('zh-TW');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.saved').count()).toBe(1);
    await page.reload();
    await expect.poll(() => page.getByLabel('Telegram chat id').inputValue()).toBe('123456789');
    expect(await page.getByLabel('Send the weekly reports to Telegram').isChecked()).toBe(true);
    expect(await page.getByLabel('Language of the notifications').inputValue()).toBe('zh-TW');
    expect(await summaryBlock.isChecked()).toBe(false);
    // and on again: the switch is sent both ways
    await summaryBlock.check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.saved').count()).toBe(1);
    await page.reload();
    await expect.poll(() => summaryBlock.isChecked()).toBe(true);

    // favorite one article of the topic
    await page.goto(`/articles?topic=${data.topic.id}`);
    await expect.poll(() => titles(page)).toHaveLength(4);
    const card = page.locator(`article[data-article-id="${data.low.id}"]`);
    await card.getByTestId('favorite').click();
    await expect.poll(() => card.getByTestId('favorite').getAttribute('aria-pressed')).toBe('true');

    // favorites only: just that one, and the filter is kept in the URL with the topic
    await page.getByTestId('favorites-only').click();
    await expect.poll(() => titles(page)).toEqual([data.low.title]);
    expect(new URL(page.url()).searchParams.get('favorites')).toBe('1');
    expect(new URL(page.url()).searchParams.get('topic')).toBe(data.topic.id);
    await page.getByTestId('favorites-only').click();
    await expect.poll(() => titles(page)).toHaveLength(4);

    // sort by citations: descending, the article without a value last; ascending, still last
    await page.getByTestId('sort-menu').click();
    await page.getByRole('menuitemradio', { name: 'Citations' }).click();
    await expect
      .poll(() => titles(page))
      .toEqual([data.high.title, data.mid.title, data.low.title, data.none.title]);
    await page.getByTestId('order-toggle').click();
    await expect
      .poll(() => titles(page))
      .toEqual([data.low.title, data.mid.title, data.high.title, data.none.title]);
    const url = new URL(page.url());
    expect(url.searchParams.get('sort')).toBe('citation_count');
    expect(url.searchParams.get('order')).toBe('asc');
    expect(url.searchParams.get('topic')).toBe(data.topic.id);
    // cards show the metric value with its icon
    await expect
      .poll(() =>
        page.locator(`article[data-article-id="${data.high.id}"] [data-metric="citation_count"]`).innerText(),
      )
      .toContain('120');
    expect(await page.locator(`article[data-article-id="${data.none.id}"] [data-metric]`).count()).toBe(0);

    // the report's [2] lands on its second source
    await page.goto(`/reports?topic=${data.topic.id}`);
    await page.locator('a.citation[data-citation="2"]').click();
    await page.waitForURL('**#source-2');
    const target = page.locator('.sources li:target');
    await expect.poll(() => target.innerText()).toContain(data.mid.title);
    expect(await target.getAttribute('data-source-index')).toBe('2');
    await context.close();
  });

  it('opening an article records one view and shows its summary and tags', async () => {
    const { page, context } = await env.newContext();
    await page.goto(`/articles/${data.high.id}`);
    await expect.poll(() => page.locator('h1').innerText()).toBe(data.high.title);
    await expect.poll(() => page.locator('.tags').innerText()).toContain('error-correction');
    await expect.poll(() => page.getByTestId('translation').innerText()).toContain('大規模量子錯誤更正');
    // in Traditional Chinese the translation leads
    await page.getByLabel('Language').selectOption('zh-TW');
    await expect.poll(() => page.locator('h1').innerText()).toBe('大規模量子錯誤更正');
    await expect.poll(() => page.locator('main').innerText()).toContain('更正碼在更大的晶片上運作。');
    // the view reaches the counter (flushed into view_count by the worker, read here through the flush endpoint)
    const admin = await env.api.login('admin');
    await expect
      .poll(async () => {
        const res = await env.api.app.inject({
          method: 'POST',
          url: '/admin/articles/flush-view-counts',
          headers: admin.headers,
        });
        return res.json().views as number;
      })
      .toBeGreaterThanOrEqual(1);
    await context.close();
  });

  it('pages through a topic, keeping topic and sort in the URL', async () => {
    const db = env.api.container.database.db;
    const topic = await makeTopic(db, { name: 'Paged topic' });
    await makeArticles(db, 23, (i) => ({ topicId: topic.id, title: `Paged ${String(i).padStart(2, '0')}` }));
    const { page, context } = await env.newContext();
    await page.goto(`/articles?topic=${topic.id}&sort=title&order=asc`);
    await expect.poll(() => titles(page)).toHaveLength(20);
    expect((await titles(page))[0]).toBe('Paged 00');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => titles(page)).toEqual(['Paged 20', 'Paged 21', 'Paged 22']);
    const url = new URL(page.url());
    expect([
      url.searchParams.get('page'),
      url.searchParams.get('topic'),
      url.searchParams.get('sort'),
    ]).toEqual(['2', topic.id, 'title']);
    await page.goBack();
    await expect.poll(() => titles(page)).toHaveLength(20);
    await context.close();
  });

  it('the sort menu works from the keyboard alone', async () => {
    const { page, context } = await env.newContext();
    await page.goto(`/articles?topic=${data.topic.id}`);
    await expect.poll(() => titles(page)).toHaveLength(4);
    await page.getByTestId('sort-menu').focus();
    await page.keyboard.press('Enter');
    // focus starts on the current key (scraped_at); two steps down is source
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-sort-key')))
      .toBe('scraped_at');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('source');
    expect(await page.getByRole('menu').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('sort-menu');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('order')).toBe('asc');
    await context.close();
  });

  it('guests see no admin navigation and admin routes send them to the login page; users get 403', async () => {
    const guest = await env.newContext();
    await guest.page.goto('/admin/metrics');
    await guest.page.waitForURL('**/login?next=%2Fadmin%2Fmetrics');
    expect(await guest.page.getByRole('group', { name: 'Admin' }).count()).toBe(0);
    await guest.context.close();

    const user = await env.newContext({ as: 'user' });
    await user.page.goto('/admin/tags');
    await expect.poll(() => user.page.locator('[data-status="403"]').count()).toBe(1);
    expect(await user.page.getByRole('link', { name: 'Metrics' }).count()).toBe(0);
    await user.context.close();
  });
});
