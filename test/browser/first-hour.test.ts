import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';
import { HttpPeer } from '../peers/http-peer.js';
import { makeArticles, makeTopic } from '../helpers/article-factories.js';

const RSS = readFileSync(new URL('../fixtures/feeds/node-feedparser/rss2sample.xml', import.meta.url));

let env: BrowserEnv;
let peer: HttpPeer;

beforeAll(async () => {
  peer = await new HttpPeer((req, res) => {
    if (req.path.endsWith('.xml'))
      return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(RSS);
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
  }).start();
  // a fresh database and no language-model provider; the loopback feed is allowed
  env = await startBrowserEnv({
    env: { FETCH_ALLOWED_HOSTS: '127.0.0.1', VIEW_COUNT_RECENT_FLUSH_SECONDS: '1' },
  });
});
afterAll(async () => {
  await env?.close();
  await peer?.stop();
});

const zhTW = (page: Page) => page.addInitScript(() => localStorage.setItem('locale', 'zh-TW'));
const shot = async (page: Page, name: string) => {
  await page.evaluate(() => window.scrollTo(0, 0));
  await env.screenshot(page, name);
};

describe.sequential('the first hour in Chromium', () => {
  it('adds the first topic from the add form and shows the new source’s first fetch without waiting for the schedule (en, zh-TW)', async () => {
    for (const lang of ['en', 'zh-TW'] as const) {
      const { page, context } = await env.newContext({ as: 'admin' });
      if (lang === 'zh-TW') await zhTW(page);
      await page.goto('/admin/catalog');
      const s = page.locator('section[aria-labelledby="sources-title"]');
      const form = s.locator('form.source-create');
      if (lang === 'en') {
        // no topic yet: the form offers to create one instead of a select with nothing in it
        await form.getByLabel('New topic').fill('Physics');
        await shot(page, `first-hour-no-topic-${lang}`);
        await form.getByRole('button', { name: 'Create topic' }).click();
        await expect.poll(() => form.locator('select[name="topic_id"]').count()).toBe(1);
        expect(await form.getByRole('button', { name: 'Add source' }).isEnabled()).toBe(true);
      }
      await form.locator('input[name="url"]').fill(`${peer.url}/${lang}.xml`);
      await form.locator('input[name="name"]').fill(`Liftoff ${lang}`);
      await form.locator('button[type="submit"]').click();
      const first = form.getByTestId('first-fetch');
      // read at once: the result shows in the form within seconds (the schedule runs hourly)
      await expect.poll(() => first.innerText(), { timeout: 20_000 }).toMatch(/HTTP 200/);
      expect(await first.innerText()).toContain(
        lang === 'en' ? `First fetch of Liftoff ${lang}:` : '首次抓取',
      );
      await shot(page, `first-hour-first-fetch-${lang}`);
      await context.close();
    }
    const { page, context } = await env.newContext({ as: 'admin', viewport: VIEWPORTS.phone });
    await zhTW(page);
    await page.goto('/admin/catalog');
    await page.locator('form.source-create input[name="url"]').fill(`${peer.url}/phone.xml`);
    await page.locator('form.source-create button[type="submit"]').click();
    await expect
      .poll(() => page.getByTestId('first-fetch').innerText(), { timeout: 20_000 })
      .toMatch(/HTTP 200/);
    await page.getByTestId('first-fetch').scrollIntoViewIfNeeded();
    await env.screenshot(page, 'first-hour-first-fetch-zh-TW-phone');
    await context.close();
  }, 120_000);

  it('groups the sources table by topic, with a search and the failing and disabled filters', async () => {
    const db = env.api.container.database.db;
    const admin = (await env.api.login('admin')).headers;
    const chemistry = await makeTopic(db, { name: 'Chemistry', slug: `chemistry-${Date.now()}` });
    for (const [name, path, enabled] of [
      ['Paused lab', 'paused.xml', false],
      ['Broken lab', 'missing', true],
    ] as const) {
      const res = await env.api.app.inject({
        method: 'POST',
        url: '/admin/sources',
        headers: admin,
        payload: {
          topic_id: chemistry.id,
          kind: 'rss',
          name,
          url: `${peer.url}/${path}`,
          enabled,
          force: true,
        },
      });
      expect(res.statusCode).toBe(201);
      if (enabled)
        await env.api.app.inject({
          method: 'POST',
          url: `/admin/sources/${res.json<{ id: string }>().id}/fetch`,
          headers: admin,
        });
    }
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/catalog');
    const s = page.locator('section[aria-labelledby="sources-title"]');
    const groups = s.getByTestId('sources-group');
    await expect.poll(() => groups.count()).toBe(2);
    const heads = (await s.locator('tr.group-row th').allInnerTexts()).map((h) => h.replace(/\s+/g, ' '));
    expect(heads.sort()).toEqual(['Chemistry 2 sources', 'Physics 3 sources']);
    await s.getByLabel('Search sources').fill('lab');
    await expect.poll(() => s.getByTestId('sources-row').count()).toBe(2);
    await s.getByLabel('Search sources').fill('');
    await s.getByLabel('Show').selectOption('disabled');
    await expect
      .poll(() => s.getByTestId('sources-row').allInnerTexts())
      .toEqual([expect.stringContaining('Paused lab')]);
    await s.getByLabel('Show').selectOption('failing');
    await expect
      .poll(() => s.getByTestId('sources-row').allInnerTexts(), { timeout: 20_000 })
      .toEqual([expect.stringContaining('Broken lab')]);
    await shot(page, 'sources-grouped-failing-en');
    await context.close();
  }, 120_000);

  it('shows one view count in the list and the reader view right after a view, and sorts by it within seconds (en, zh-TW)', async () => {
    const db = env.api.container.database.db;
    const topic = await makeTopic(db, { name: 'Views', slug: `views-${Date.now()}` });
    const articles = await makeArticles(db, 4, () => ({ topicId: topic.id }));
    for (const [lang, target, views] of [
      ['en', articles[0]!, '1 view'],
      ['zh-TW', articles[1]!, '1 次瀏覽'],
    ] as const) {
      const { page, context } = await env.newContext();
      if (lang === 'zh-TW') await zhTW(page);
      await page.goto(`/articles?topic=${topic.id}`);
      const card = page.locator(`article[data-article-id="${target.id}"]`);
      await card.getByTestId('article-link').click();
      // the reader view counts the view and shows it
      await expect.poll(() => page.getByTestId('views').first().innerText()).toBe(views);
      await shot(page, `one-count-reader-${lang}`);
      await page.goBack();
      await expect.poll(() => card.getByTestId('views').innerText()).toBe(views);
      await shot(page, `one-count-list-${lang}`);
      // sorted by views, the article viewed leads within seconds
      await page.goto(`/articles?topic=${topic.id}&sort=view_count&order=desc`);
      const leads = async () => {
        await page.reload();
        const first = page.locator('article[data-article-id]').first();
        await first.waitFor();
        return [articles[0]!.id, articles[1]!.id].includes(
          (await first.getAttribute('data-article-id')) ?? '',
        );
      };
      await expect.poll(leads, { timeout: 15_000, interval: 1000 }).toBe(true);
      await shot(page, `one-count-sorted-${lang}`);
      await context.close();
    }
  }, 120_000);
});
