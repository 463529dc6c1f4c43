import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBrowserEnv, type BrowserEnv } from './helpers/browser.js';
import { seedReaderData, type ReaderData } from './helpers/seed.js';

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

describe.sequential('reader preferences in Chromium (subscriptions, metric sort)', () => {
  it('subscribes to a topic from the settings page, and the subscription survives a reload', async () => {
    const { page, context } = await env.newContext({ as: 'user' });
    await page.goto('/settings');
    // subscribe to the topic
    const row = page.locator(`li[data-topic-id="${data.topic.id}"]`);
    await row.getByRole('button', { name: 'Subscribe' }).click();
    await expect.poll(() => row.getByRole('button').getAttribute('aria-pressed')).toBe('true');
    await page.reload();
    await expect.poll(() => row.getByRole('button').innerText()).toBe('Unsubscribe');

    await context.close();
  });

  it('sorts by citations with the rows without a value last, in both directions', async () => {
    const { page, context } = await env.newContext();
    await page.goto(`/articles?topic=${data.topic.id}`);
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

    await context.close();
  });
});
