import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';
import { setMetric } from '../helpers/article-factories.js';
import { makeItem, rssFeed, seedPipeline, startFeedServer } from '../helpers/pipeline-factories.js';
import type { HttpPeer } from '../peers/http-peer.js';

/**
 * Issue 17's "must show" journey. NEEDS THE READER API of issue 17 (is_read, snippet, content_html,
 * metric_details, PUT/DELETE /articles/{id}/read, POST /articles/read, /me/unread-counts,
 * /articles/{id}/similar, unread_only, relevance search): it runs after the reader-api branch is
 * merged. The articles come in through a real scrape of a loopback RSS feed whose entries carry
 * hostile markup (script, onerror, iframe, form), an image, a list and a DOI.
 */
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const HOSTILE =
  '<script>window.__pwned = "script"</script><img src="x" onerror="window.__pwned = \'onerror\'">' +
  '<iframe src="https://evil.example/"></iframe><form action="https://evil.example/"><input name="p"></form>' +
  '<a href="javascript:window.__pwned=\'href\'">bad link</a><object data="x.swf"></object>';
const WORD = 'zephyrine';
const CJK = '鈮酸鋰';
const DOI = '10.5555/zephyr.42';

let env: BrowserEnv;
let feeds: HttpPeer;
let topicId = '';
const ids: Record<string, string> = {};

async function scrape(headers: Record<string, string>) {
  const start = await env.api.app.inject({ method: 'POST', url: '/admin/scraper/runs', headers });
  const runId = start.json<{ run_id: string }>().run_id;
  for (let i = 0; i < 800; i++) {
    const r = await env.api.app.inject({ method: 'GET', url: `/admin/scraper/runs/${runId}`, headers });
    if (r.json<{ status: string }>().status !== 'running') return;
    await new Promise((res) => setTimeout(res, 25));
  }
  throw new Error('the scrape did not finish');
}

beforeAll(async () => {
  env = await startBrowserEnv();
  const items = [
    makeItem({
      title: 'Superconducting qubits hold coherence for longer',
      summary: `A ${WORD} coating keeps qubits coherent. ${HOSTILE}`,
      content:
        `<h2>Findings</h2><p>The ${WORD} coating doubles coherence times.</p>` +
        `<p><img src="${PIXEL}" alt="chip photo" width="40" height="40"></p>` +
        `<ul><li>first result</li><li>second result</li></ul>` +
        `<p><a href="https://example.org/paper">the paper</a></p>${HOSTILE}`,
      doi: DOI,
    }),
    makeItem({
      title: `${CJK}光子晶片突破頻寬限制`,
      summary: '研究團隊以薄膜晶片實現更高的調變頻寬，適用於資料中心。',
      content: '<p>研究團隊以薄膜晶片實現更高的調變頻寬。</p>',
    }),
    ...Array.from({ length: 4 }, (_, i) => makeItem({ title: `Quantum filler article ${i + 1}` })),
  ];
  feeds = await startFeedServer({ '/feed.xml': rssFeed(items) });
  const admin = await env.api.login('admin');
  ({ topicId } = await seedPipeline(env.api.app, admin.headers, {
    sources: [{ name: 'Loopback RSS', url: `${feeds.url}/feed.xml` }],
  }));
  await scrape(admin.headers);
  const list = await env.api.app.inject({ method: 'GET', url: `/articles?topic_id=${topicId}&limit=50` });
  for (const a of list.json<{ items: { id: string; title: string }[] }>().items) ids[a.title] = a.id;
  expect(Object.keys(ids)).toHaveLength(items.length);
  await setMetric(env.api.container.database.db, ids[items[0]!.title]!, 'citation_count', 42, 'openalex');
});
afterAll(async () => {
  await env?.close();
  await feeds?.stop();
});

const titles = (page: Page) => page.locator('[data-testid="article-list"] article h2').allInnerTexts();
const search = async (page: Page, q: string) => {
  await page.getByTestId('search').fill(q);
  await page.getByTestId('search').press('Enter');
};

/** Nothing of the hostile markup reached the DOM, and none of it ran. */
async function expectClean(page: Page) {
  const content = page.getByTestId('article-content');
  await expect.poll(() => content.count()).toBe(1);
  for (const selector of [
    'script',
    'iframe',
    'form',
    'input',
    'object',
    'embed',
    '[onerror]',
    'a[href^="javascript"]',
  ])
    expect(await content.locator(selector).count(), selector).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  expect(await page.locator('main script, main iframe, main [onerror]').count()).toBe(0);
}

describe.sequential('the reader daily loop (needs the issue 17 reader api)', () => {
  it('search, read with content, DOI and citations, f m j, back to the same list, mark all read, counts change (en, desktop)', async () => {
    const { page, context } = await env.newContext({ as: 'user' });
    await page.goto('/');
    await page.waitForURL('**/articles');
    const unreadBadge = page.getByTestId(`unread-${topicId}`);
    await expect.poll(() => unreadBadge.innerText()).toContain('6');

    // a word only in one article's summary and content; the match is highlighted
    await search(page, WORD);
    await expect.poll(() => titles(page)).toEqual(['Superconducting qubits hold coherence for longer']);
    await expect
      .poll(() => page.locator('[data-testid="snippet"] mark').first().innerText())
      .toMatch(new RegExp(WORD, 'i'));
    expect(new URL(page.url()).searchParams.get('q')).toBe(WORD);
    // a CJK word of one Chinese title
    await search(page, CJK);
    await expect.poll(() => titles(page)).toEqual([`${CJK}光子晶片突破頻寬限制`]);
    expect(await page.locator('[data-testid="snippet"] mark').first().innerText()).toContain(CJK);
    await env.screenshot(page, 'reader-daily-search-en');

    // the topic's list by title: open the result, read it
    await page.goto(`/articles?topic=${topicId}&sort=title&order=asc`);
    await expect.poll(() => titles(page)).toHaveLength(6);
    const listUrl = page.url();
    const target = 'Superconducting qubits hold coherence for longer';
    const sorted = await titles(page);
    const index = sorted.indexOf(target);
    expect(index).toBeLessThan(sorted.length - 1);
    await page.getByRole('link', { name: target }).click();
    await page.waitForURL(`**/articles/${ids[target]}?from=*`);
    await expectClean(page);
    const content = page.getByTestId('article-content');
    // the article's own image; the hostile one is kept only without its handler
    expect(await content.locator('img[alt="chip photo"]').count()).toBe(1);
    expect(await content.locator('img[onerror]').count()).toBe(0);
    expect(await content.locator('li').count()).toBe(2);
    expect(await content.locator('a[href="https://example.org/paper"]').getAttribute('rel')).toContain(
      'noopener',
    );
    expect(await page.getByTestId('doi-link').getAttribute('href')).toBe(`https://doi.org/${DOI}`);
    const citations = page.locator('[data-metric="citation_count"]');
    await expect.poll(() => citations.innerText()).toContain('42');
    expect(await citations.innerText()).toContain('openalex');
    // opening marked it read
    await expect.poll(() => page.getByTestId('read-toggle').getAttribute('aria-pressed')).toBe('true');
    await env.screenshot(page, 'reader-daily-view-en');

    await page.keyboard.press('f');
    await expect.poll(() => page.getByTestId('favorite').getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('m');
    await expect.poll(() => page.getByTestId('read-toggle').getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => unreadBadge.innerText()).toContain('6');
    await page.keyboard.press('m');
    await expect.poll(() => unreadBadge.innerText()).toContain('5');
    const before = await page.locator('h1').innerText();
    await page.keyboard.press('j');
    await expect.poll(() => page.locator('h1').innerText()).not.toBe(before);
    expect(await page.locator('h1').innerText()).toBe(sorted[index + 1]);
    await expect.poll(() => unreadBadge.innerText()).toContain('4');

    // back: the same page and sort
    await page.getByTestId('back-link').click();
    await expect.poll(() => page.url()).toBe(listUrl);
    await expect.poll(() => titles(page)).toHaveLength(6);
    const favorited = page.locator(`article[data-article-id="${ids[target]}"]`);
    expect(await favorited.getByTestId('favorite').getAttribute('aria-pressed')).toBe('true');
    expect(await favorited.getAttribute('data-read')).toBe('true');

    // unread only, then mark all read: the list empties and the counts go
    // the filter lives in the URL: the box shows checked once the list has moved there
    await page.getByTestId('unread-only').click();
    await expect.poll(() => page.getByTestId('unread-only').isChecked()).toBe(true);
    await expect.poll(() => titles(page)).toHaveLength(4);
    await page.getByTestId('mark-all-read').click();
    // it asks first, with the count of what it will mark
    const confirm = page.getByTestId('mark-all-confirm');
    await expect.poll(() => confirm.getByTestId('mark-all-question').innerText()).toContain('4');
    await confirm.getByTestId('confirm').click();
    await expect.poll(() => page.getByTestId('empty-state').getAttribute('data-empty')).toBe('filtered');
    await expect.poll(() => unreadBadge.count()).toBe(0);
    await expect.poll(() => page.getByTestId('unread-total').count()).toBe(0);
    await env.screenshot(page, 'reader-daily-all-read-en');
    await context.close();
  });

  it('the same loop in zh-TW on a phone: snippet, reader view strings, similar articles, clean content', async () => {
    const { page, context } = await env.newContext({ as: 'user', viewport: VIEWPORTS.phone });
    await page.goto('/articles');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByLabel('Language').selectOption('zh-TW');
    await page.getByRole('button', { name: '選單' }).click();
    await search(page, CJK);
    await expect.poll(() => titles(page)).toEqual([`${CJK}光子晶片突破頻寬限制`]);
    await env.screenshot(page, 'reader-daily-search-phone-zh-TW');
    // nothing (e.g. a badge's hidden label) widens the page beyond the phone's screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.phone.width,
    );
    await search(page, WORD);
    await page.getByTestId('article-link').first().click();
    await expectClean(page);
    await expect.poll(() => page.getByTestId('read-toggle').innerText()).toBe('標為未讀');
    expect(await page.getByTestId('back-link').innerText()).toBe('返回列表');
    await expect.poll(() => page.getByTestId('similar').locator('li').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('similar').innerText()).toContain('相似文章');
    await env.screenshot(page, 'reader-daily-view-phone-zh-TW');
    // nothing (e.g. a badge's hidden label) widens the page beyond the phone's screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.phone.width,
    );
    await context.close();
  });

  it('the topic and report feeds linked from the pages answer Atom through the web role', async () => {
    const { page, context } = await env.newContext();
    await page.goto(`/articles?topic=${topicId}`);
    const href = await page
      .locator('head link[rel="alternate"][type="application/atom+xml"]')
      .getAttribute('href');
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('application/atom+xml');
    expect(await res.text()).toContain('Superconducting qubits hold coherence for longer');
    await page.goto(`/reports?topic=${topicId}`);
    const reports = await page.request.get(
      (await page.locator('head link[rel="alternate"][type="application/atom+xml"]').getAttribute('href'))!,
    );
    expect(reports.status()).toBe(200);
    expect(reports.headers()['content-type']).toContain('application/atom+xml');
    await context.close();
  });
});
