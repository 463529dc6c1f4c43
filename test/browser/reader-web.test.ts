import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';
import { seedReaderData, type ReaderData } from './helpers/seed.js';
import { makeArticle, makeArticles, makeTopic } from '../helpers/article-factories.js';

/**
 * The reader pages' parts that need no endpoint of issue 17: keyboard, URL state and the back link,
 * empty states, translations, the sign-up button and the phone filters. The journey that needs the
 * new endpoints is reader-daily.test.ts.
 */
let env: BrowserEnv;
let data: ReaderData | undefined;

beforeAll(async () => {
  env = await startBrowserEnv();
});
afterAll(async () => {
  await env?.close();
});

const db = () => env.api.container.database.db;
const seeded = async () => (data ??= await seedReaderData(db()));
const titles = (page: Page) => page.locator('[data-testid="article-list"] article h2').allInnerTexts();
const focusedCard = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('article')?.getAttribute('data-article-id') ?? null);
const toZh = (page: Page) => page.getByLabel('Language').selectOption('zh-TW');

describe.sequential('reader web app', () => {
  it('with no article at all, tells admins to add a source and guests what to expect (en, zh-TW)', async () => {
    const admin = await env.newContext({ as: 'admin' });
    await admin.page.goto('/articles');
    const empty = admin.page.getByTestId('empty-state');
    await expect.poll(() => empty.getAttribute('data-empty')).toBe('no-articles');
    await expect.poll(() => empty.innerText()).toContain('There are no sources yet');
    expect(await admin.page.getByTestId('add-source').getAttribute('href')).toBe('/admin/catalog');
    await env.screenshot(admin.page, 'reader-empty-admin-en');
    await toZh(admin.page);
    await expect.poll(() => empty.innerText()).toContain('目前還沒有來源');
    expect(await admin.page.getByTestId('add-source').innerText()).toBe('新增來源');
    await env.screenshot(admin.page, 'reader-empty-admin-zh-TW');
    await admin.context.close();

    const guest = await env.newContext();
    await guest.page.goto('/articles');
    await expect.poll(() => guest.page.getByTestId('empty-state').innerText()).toContain('administrator');
    expect(await guest.page.getByTestId('add-source').count()).toBe(0);
    await guest.context.close();
  });

  it('a topic without reports: with the scheduler off, says reports are written on demand (en, zh-TW)', async () => {
    // the test service runs without a scheduler (SCHEDULER_ENABLED=false): the server says no report is due
    const schedule = await env.api.app.inject({ url: '/weekly-reports/schedule' });
    expect(schedule.json()).toEqual({ next_due_at: null, cron: null });
    const topic = await makeTopic(db(), { name: 'Reportless' });
    const { page, context } = await env.newContext();
    await page.goto(`/reports?topic=${topic.id}`);
    const none = page.getByTestId('no-report');
    await expect
      .poll(() => page.getByTestId('no-report-schedule').innerText())
      .toBe('Reports are not written on a schedule on this site: an administrator writes them on demand.');
    // no date is promised
    expect(await none.getAttribute('data-due')).toBe('');
    expect(await none.innerText()).not.toMatch(/due|UTC/);
    // the topic's report feed is linked from the page and its head
    expect(await page.getByTestId('report-feed').getAttribute('href')).toBe(
      `/feeds/reports/${topic.id}.atom`,
    );
    expect(
      await page.locator('head link[rel="alternate"][type="application/atom+xml"]').getAttribute('href'),
    ).toBe(`/feeds/reports/${topic.id}.atom`);
    await toZh(page);
    await expect.poll(() => none.innerText()).toContain('本站不依排程撰寫報告');
    await context.close();
  });

  it('j/k walk the cards with a visible focus, Enter opens, j/k in the reader view, the back link restores the list', async () => {
    const d = await seeded();
    const { page, context } = await env.newContext();
    await page.goto(`/articles?topic=${d.topic.id}&sort=title&order=asc`);
    const order = [d.low.title, d.high.title, d.none.title, d.mid.title];
    await expect.poll(() => titles(page)).toEqual(order);
    const ids = [d.low.id, d.high.id, d.none.id, d.mid.id];

    await page.keyboard.press('j');
    await expect.poll(() => focusedCard(page)).toBe(ids[0]);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect.poll(() => focusedCard(page)).toBe(ids[2]);
    await page.keyboard.press('k');
    await expect.poll(() => focusedCard(page)).toBe(ids[1]);
    // the focus ring is drawn (focus-visible from the keyboard)
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).toBe('solid');
    await env.screenshot(page, 'reader-list-keyboard-en');

    await page.keyboard.press('Enter');
    await page.waitForURL(`**/articles/${ids[1]}?from=*`);
    await expect.poll(() => page.locator('h1').innerText()).toBe(order[1]);
    expect(await page.getByTestId('position').innerText()).toBe('2 of 4');
    await page.keyboard.press('j');
    await expect.poll(() => page.locator('h1').innerText()).toBe(order[2]);
    await page.keyboard.press('k');
    await expect.poll(() => page.locator('h1').innerText()).toBe(order[1]);
    await page.keyboard.press('k');
    await expect.poll(() => page.locator('h1').innerText()).toBe(order[0]);
    expect(await page.getByTestId('previous-article').count()).toBe(0);

    await page.getByTestId('back-link').click();
    await expect.poll(() => titles(page)).toEqual(order);
    const url = new URL(page.url());
    expect([url.pathname, url.searchParams.get('topic'), url.searchParams.get('sort')]).toEqual([
      '/articles',
      d.topic.id,
      'title',
    ]);
    expect(url.searchParams.get('order')).toBe('asc');
    await context.close();
  });

  it('f favorites the selected card on the list and the open article in the reader view', async () => {
    const d = await seeded();
    const { page, context } = await env.newContext({ as: 'user' });
    await page.goto(`/articles?topic=${d.topic.id}&sort=title&order=asc`);
    await expect.poll(() => titles(page)).toHaveLength(4);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect.poll(() => focusedCard(page)).toBe(d.high.id);
    const card = page.locator(`article[data-article-id="${d.high.id}"]`);
    await page.keyboard.press('f');
    await expect.poll(() => card.getByTestId('favorite').getAttribute('aria-pressed')).toBe('true');
    // the other cards are untouched
    expect(await page.locator('[data-testid="favorite"][aria-pressed="true"]').count()).toBe(1);
    await page.keyboard.press('o');
    await page.waitForURL(`**/articles/${d.high.id}?from=*`);
    const toggle = page.getByTestId('favorite');
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('f');
    await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('false');
    const favorites = await env.api.app.inject({
      method: 'GET',
      url: '/articles?favorites_only=true',
      headers: {
        authorization: `Bearer ${(await context.cookies()).find((c) => c.name === 'ai_session')!.value}`,
      },
    });
    expect(favorites.json<{ total: number }>().total).toBe(0);
    await context.close();
  });

  it('previous/next cross pages of the list and the back link returns to the page holding the article', async () => {
    const topic = await makeTopic(db(), { name: 'Paged reader' });
    const rows = await makeArticles(db(), 23, (i) => ({
      topicId: topic.id,
      title: `Reader ${String(i).padStart(2, '0')}`,
    }));
    const byTitle = new Map(rows.map((r) => [r.title, r.id]));
    const { page, context } = await env.newContext();
    // page 1 of the list (where the previous article is) is answered only after k was pressed: the
    // key is kept until the neighbor is known, as a quick reader presses it
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = true;
    await page.route('**/api/proxy/articles?*', async (route) => {
      if (!holding || new URL(route.request().url()).searchParams.get('offset') !== '0')
        return route.continue();
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    const from = `topic=${topic.id}&sort=title&order=asc&page=2`;
    await page.goto(`/articles/${byTitle.get('Reader 20')}?from=${encodeURIComponent(from)}`);
    await expect.poll(() => page.getByTestId('position').innerText()).toBe('21 of 23');
    expect(await page.getByTestId('back-link').getAttribute('href')).toBe(`/articles?${from}`);
    expect(await page.getByTestId('previous-article').count()).toBe(0);
    // k at the first article of page 2 goes to the last of page 1
    await page.keyboard.press('k');
    release();
    holding = false;
    await expect.poll(() => page.locator('h1').innerText()).toBe('Reader 19');
    await page.getByTestId('back-link').click();
    await expect.poll(() => titles(page)).toHaveLength(20);
    const url = new URL(page.url());
    expect(url.searchParams.get('page')).toBeNull();
    expect(url.searchParams.get('sort')).toBe('title');
    expect((await titles(page))[19]).toBe('Reader 19');
    // j past the last card of page 1 pages on
    await page.locator('article[data-article-id] a[data-testid="article-link"]').nth(19).focus();
    await page.keyboard.press('j');
    await expect.poll(() => titles(page)).toEqual(['Reader 20', 'Reader 21', 'Reader 22']);
    await expect.poll(() => focusedCard(page)).toBe(byTitle.get('Reader 20'));
    await context.close();
  });

  it('/ focuses the search, keys typed there stay text, ? shows the help (en, zh-TW), g a shows all articles', async () => {
    const d = await seeded();
    const { page, context } = await env.newContext();
    await page.goto(`/articles?topic=${d.topic.id}&sort=title`);
    await expect.poll(() => titles(page)).toHaveLength(4);
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('article-search');
    await page.keyboard.type('jk?');
    expect(await page.getByTestId('search').inputValue()).toBe('jk?');
    expect(await page.getByTestId('help-overlay').count()).toBe(0);
    await page.getByTestId('search').fill('');
    await page.locator('h1').click();

    await page.keyboard.press('?');
    const help = page.getByTestId('help-overlay');
    await expect.poll(() => help.isVisible()).toBe(true);
    await expect.poll(() => help.innerText()).toContain('Keyboard shortcuts');
    expect(await help.locator('kbd').allInnerTexts()).toEqual(
      expect.arrayContaining(['j', 'k', 'o', 'Enter', 'f', 'm', '/', 'g', 'a', '?']),
    );
    await env.screenshot(page, 'reader-help-en');
    await page.keyboard.press('Escape');
    await expect.poll(() => help.count()).toBe(0);

    await toZh(page);
    await page.locator('h1').click();
    await page.keyboard.press('?');
    await expect.poll(() => help.innerText()).toContain('鍵盤快捷鍵');
    expect(await help.innerText()).toContain('下一篇文章');
    await env.screenshot(page, 'reader-help-zh-TW');
    await page.keyboard.press('?');
    await expect.poll(() => help.count()).toBe(0);

    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.waitForURL((u) => u.pathname === '/articles' && u.search === '');
    await context.close();
  });

  it('the reader view says "Date unknown" without a published date, and server errors by their code in zh-TW', async () => {
    const topic = await makeTopic(db(), { name: 'Undated topic' });
    const undated = await makeArticle(db(), { topicId: topic.id, title: 'Undated note', publishedAt: null });
    const { page, context } = await env.newContext();
    await page.goto(`/articles/${undated.id}`);
    await expect.poll(() => page.locator('.meta [data-testid="date"]').innerText()).toBe('Date unknown');
    await page.goto(`/articles?topic=${topic.id}`);
    const card = page.locator(`article[data-article-id="${undated.id}"]`);
    await expect.poll(() => card.getByTestId('date').innerText()).toBe('Date unknown');

    await page.goto('/articles/00000000-0000-4000-8000-000000000000');
    const error = page.locator('[role="alert"]');
    await expect.poll(() => error.getAttribute('data-error-code')).toBe('not_found');
    await toZh(page);
    await expect.poll(() => error.innerText()).toContain('找不到此項目');
    expect(await error.innerText()).not.toMatch(/not found/i);
    expect(await page.getByTestId('back-link').innerText()).toBe('所有文章');
    await context.close();
  });

  it('the sign-up button is readable for guests and absent for signed-in users, whom /register sends on', async () => {
    const guest = await env.newContext();
    await guest.page.goto('/register');
    const button = guest.page.locator('header a.button-link');
    await expect.poll(() => button.innerText()).toBe('Create account');
    // on its own page (the active link) as elsewhere: light text on the accent color
    const contrast = await button.evaluate((el) => {
      const rgb = (c: string) => (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
      const lum = (c: string) => {
        const [r, g, b] = rgb(c).map((v) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const style = getComputedStyle(el);
      const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
      return (a! + 0.05) / (b! + 0.05);
    });
    expect(contrast).toBeGreaterThanOrEqual(4.5);
    await guest.context.close();

    const user = await env.newContext({ as: 'user' });
    await user.page.goto('/articles');
    await expect.poll(() => user.page.getByTestId('user-name').count()).toBe(1);
    expect(await user.page.getByRole('link', { name: 'Create account' }).count()).toBe(0);
    await user.page.goto('/register');
    await user.page.waitForURL('**/articles');
    await user.context.close();
  });

  it('on a phone the filters fold behind one button; the topic feed is linked; zh-TW strings throughout', async () => {
    const d = await seeded();
    const { page, context } = await env.newContext({ as: 'user', viewport: VIEWPORTS.phone });
    await page.goto(`/articles?topic=${d.topic.id}`);
    await expect.poll(() => titles(page)).toHaveLength(4);
    const filters = page.getByTestId('list-filters');
    expect(await filters.isVisible()).toBe(false);
    expect(await page.getByTestId('search').isVisible()).toBe(true);
    // the first card starts within the first screen
    const top = await page.locator('[data-testid="article-list"] article').first().boundingBox();
    expect(top!.y).toBeLessThan(VIEWPORTS.phone.height);
    await env.screenshot(page, 'reader-list-phone-en');
    await page.getByTestId('filters-toggle').click();
    await expect.poll(() => filters.isVisible()).toBe(true);
    expect(await page.getByTestId('unread-only').isVisible()).toBe(true);
    await env.screenshot(page, 'reader-list-phone-filters-en');
    // the language select sits in the phone menu
    await page.getByRole('button', { name: 'Menu' }).click();
    await toZh(page);
    await page.getByRole('button', { name: '選單' }).click();
    await expect.poll(() => page.getByTestId('filters-toggle').innerText()).toContain('篩選');
    expect(await page.locator('main').innerText()).toContain('只顯示未讀');
    await env.screenshot(page, 'reader-list-phone-zh-TW');
    // nothing (e.g. a badge's hidden label) widens the page beyond the phone's screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.phone.width,
    );

    const feed = `/feeds/topics/${d.topic.id}.atom?sort=scraped_at&order=desc`;
    expect(await page.getByTestId('topic-feed').getAttribute('href')).toBe(feed);
    expect(await page.locator('head link[rel="alternate"]').getAttribute('href')).toBe(feed);
    await context.close();

    const desktop = await env.newContext({ as: 'user' });
    await desktop.page.goto(`/articles?topic=${d.topic.id}`);
    await expect.poll(() => desktop.page.getByTestId('list-filters').isVisible()).toBe(true);
    expect(await desktop.page.getByTestId('filters-toggle').isVisible()).toBe(false);
    await env.screenshot(desktop.page, 'reader-list-desktop-en');
    await desktop.page.goto(`/articles/${d.high.id}?from=${encodeURIComponent(`topic=${d.topic.id}`)}`);
    await expect.poll(() => desktop.page.locator('h1').innerText()).toBe(d.high.title);
    await env.screenshot(desktop.page, 'reader-view-desktop-en');
    await toZh(desktop.page);
    await expect.poll(() => desktop.page.getByTestId('back-link').innerText()).toBe('返回列表');
    await env.screenshot(desktop.page, 'reader-view-desktop-zh-TW');
    await desktop.context.close();
  });
});
