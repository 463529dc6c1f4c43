import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { sources } from '../../src/infrastructure/db/schema/index.js';
import { makeTopic } from '../helpers/article-factories.js';
import { HttpPeer } from '../peers/http-peer.js';
import { SCREENSHOTS, VIEWPORTS, startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

const fixture = (path: string) => readFileSync(new URL(`../fixtures/feeds/${path}`, import.meta.url));

let env: BrowserEnv;
let peer: HttpPeer;
const db = () => env.api.container.database.db;

beforeAll(async () => {
  // real pages and feeds on loopback: a site that links to one feed, one that links to thirteen
  peer = await new HttpPeer((req, res) => {
    const send = (type: string, body: Buffer) => void res.writeHead(200, { 'content-type': type }).end(body);
    if (req.path === '/site/') return send('text/html', fixture('discovery/coldsweat-html5-xhtml.html'));
    if (req.path === '/feed') return send('application/atom+xml', fixture('rss-parser/heise.atom'));
    if (req.path === '/blog/') return send('text/html', fixture('discovery/mozilla-feed-discovery.html'));
    if (req.path === '/2.rss' || req.path === '/liftoff.xml')
      return send('application/rss+xml', fixture('node-feedparser/rss2sample.xml'));
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
  }).start();
  env = await startBrowserEnv();
});
afterAll(async () => {
  await env?.close();
  await peer?.stop();
});

const zhTW = (page: Page) => page.addInitScript(() => localStorage.setItem('locale', 'zh-TW'));
const section = (page: Page) => page.locator('section[aria-labelledby="sources-title"]');
const rowOf = (s: Locator, name: string) =>
  s.locator('tbody tr[data-testid="sources-row"]', { hasText: name }).first();
/** a full-page screenshot from the top (scrolled, the sticky top bar lands mid-page) */
const shot = async (page: Page, name: string) => {
  await page.evaluate(() => window.scrollTo(0, 0));
  await env.screenshot(page, name);
};
/** element screenshots: the sticky top bar would cover the element scrolled under it */
const STATIC_TOPBAR = '.topbar { position: static !important; }';
const noOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe.sequential(
  'admin sources in Chromium: discovery, preview, refusal, edit, fetch now, history',
  () => {
    it("adds sources by a site's address (one feed found; several: pick one), refuses a 404 before saving, edits, fetches now", async () => {
      await makeTopic(db(), { name: 'Astronomy', slug: `astronomy-${Date.now()}` });
      const { page, context } = await env.newContext({ as: 'admin' });
      await page.goto('/admin/catalog');
      const s = section(page);
      const address = s.getByLabel('Site or feed address');
      const preview = s.getByTestId('source-preview');

      // a site's address: its one feed is found and read
      await address.fill(`${peer.url}/site/`);
      await s.getByRole('button', { name: 'Check', exact: true }).click();
      await expect.poll(() => preview.innerText()).toContain('Feed found: heise developer neueste Meldungen');
      const found = await preview.innerText();
      expect(found).toContain('Found on the page “HTML5 w/ XHTML serialization document”');
      expect(found).toContain('Atom · 15 items');
      expect(found).toContain('Newest item: Java-Anwendungsserver: Red Hat gibt WildFly 10 frei');
      expect(await address.inputValue()).toBe(`${peer.url}/feed`);
      expect(await s.getByLabel('Name').getAttribute('placeholder')).toBe(
        'heise developer neueste Meldungen',
      );
      await shot(page, 'admin-sources-discovery-desktop-en');
      await s.getByRole('combobox', { name: 'Topic', exact: true }).selectOption({ label: 'Astronomy' });
      await s.getByRole('button', { name: 'Add source' }).click();
      await rowOf(s, 'heise developer neueste Meldungen').waitFor();
      expect(await address.inputValue()).toBe('');

      // a page with several feeds: the admin picks one
      await address.fill(`${peer.url}/blog/`);
      await s.getByRole('button', { name: 'Check', exact: true }).click();
      await expect.poll(() => preview.innerText()).toContain('This page links to 13 feeds. Pick one:');
      // the page itself is never saved: no "Save anyway", Add stays off until a feed is picked
      expect(await s.getByRole('button', { name: 'Add source' }).isDisabled()).toBe(true);
      expect(await s.getByLabel(/Save anyway/).count()).toBe(0);
      await shot(page, 'admin-sources-pick-desktop-en');
      await s.getByRole('button', { name: 'Use this feed: 2', exact: true }).click();
      await expect.poll(() => preview.innerText()).toContain('Feed found: Liftoff News');
      expect(await preview.innerText()).toContain('RSS 2.0 · 4 items');
      await s.getByRole('combobox', { name: 'Topic', exact: true }).selectOption({ label: 'Astronomy' });
      await s.getByRole('button', { name: 'Add source' }).click();
      await rowOf(s, 'Liftoff News').waitFor();

      // a 404: the reason before saving; Add stays off unless "Save anyway"
      await address.fill(`${peer.url}/missing.xml`);
      await s.getByRole('button', { name: 'Check', exact: true }).click();
      await expect
        .poll(() => preview.innerText())
        .toContain('Not a feed: The server answered HTTP 404: the address does not exist (any more).');
      expect(await s.getByRole('button', { name: 'Add source' }).isDisabled()).toBe(true);
      expect(await s.getByLabel(/Save anyway/).isChecked()).toBe(false);
      await shot(page, 'admin-sources-404-desktop-en');

      // saved without a check, the server refuses it too, with the reason...
      await address.fill(`${peer.url}/also-missing.xml`);
      await s.getByRole('button', { name: 'Add source' }).click();
      await expect
        .poll(() => s.getByRole('alert').innerText())
        .toContain('This address is not a feed, so it was not saved.');
      expect(await s.getByRole('alert').innerText()).toContain('HTTP 404');
      expect(
        await db()
          .select()
          .from(sources)
          .where(eq(sources.url, `${peer.url}/also-missing.xml`)),
      ).toEqual([]);

      // ...and a later successful write (an edit) clears that error
      await rowOf(s, 'Liftoff News').getByRole('button', { name: 'Edit Liftoff News' }).click();
      const form = page.getByRole('form', { name: 'Edit Liftoff News' });
      await form.getByLabel('Name').fill('Liftoff');
      await form.getByLabel('Fetch interval (minutes)').fill('15');
      await form.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => rowOf(s, 'Liftoff').innerText()).toContain('every 15 min');
      await expect.poll(() => s.getByRole('alert').count()).toBe(0);

      // the add form read it at once; fetch now reads it again: the row and its history update
      // when the run ends
      const row = rowOf(s, 'Liftoff');
      await expect.poll(() => row.innerText(), { timeout: 60_000 }).toContain('3 new · 0 duplicates');
      await row.getByRole('button', { name: 'Fetch now: Liftoff' }).click();
      await expect
        .poll(() => row.getByTestId('fetch-now-result').innerText(), { timeout: 60_000 })
        .toBe('Fetched');
      await expect.poll(() => row.innerText()).toContain('0 new · 3 duplicates');
      expect(await row.innerText()).toContain('HTTP 200');
      await row.getByRole('button', { name: 'History: Liftoff' }).click();
      const history = s.getByTestId('source-history');
      await expect.poll(() => history.getByTestId('fetch-row').count()).toBe(2);
      const rows = history.getByTestId('fetch-row');
      expect((await rows.nth(0).locator('td').allInnerTexts()).slice(2)).toEqual([
        '200',
        '4',
        '0',
        '3',
        'OK',
      ]);
      expect((await rows.nth(1).locator('td').allInnerTexts()).slice(2)).toEqual([
        '200',
        '4',
        '3',
        '0',
        'OK',
      ]);
      await shot(page, 'admin-sources-history-desktop-en');
      await context.close();
    });

    it('in Traditional Chinese on a desktop: the reasons and the table are translated', async () => {
      const { page, context } = await env.newContext({ as: 'admin' });
      await zhTW(page);
      await page.goto('/admin/catalog');
      const s = section(page);
      await rowOf(s, 'Liftoff').waitFor();
      expect(await s.locator('thead th').allInnerTexts()).toEqual([
        '名稱',
        '主題',
        '間隔',
        '上次抓取',
        '下次抓取',
        '啟用',
        '操作',
      ]);
      // the latest fetch of Liftoff is the Fetch now above (the add form's first read came before it)
      expect(await rowOf(s, 'Liftoff').innerText()).toContain('新增 0 則 · 重複 3 則');
      await s.getByLabel('網站或訂閱源網址').fill(`${peer.url}/missing.xml`);
      await s.getByRole('button', { name: '檢查', exact: true }).click();
      await expect
        .poll(() => s.getByTestId('source-preview').innerText())
        .toContain('不是訂閱源：伺服器回應 HTTP 404：網址不存在（或已移除）。');
      await s.getByLabel('網站或訂閱源網址').fill(`${peer.url}/site/`);
      await s.getByRole('button', { name: '檢查', exact: true }).click();
      await expect.poll(() => s.getByTestId('source-preview').innerText()).toContain('找到訂閱源');
      expect(await s.getByTestId('source-preview').innerText()).toContain('Atom · 15 則項目');
      await shot(page, 'admin-sources-desktop-zh-TW');
      await context.close();
    });

    it('on a phone (en and zh-TW) the sources table stays readable with its actions on screen', async () => {
      for (const lang of ['en', 'zh-TW'] as const) {
        const { page, context } = await env.newContext({ as: 'admin', viewport: VIEWPORTS.phone });
        if (lang === 'zh-TW') await zhTW(page);
        await page.goto('/admin/catalog');
        const s = section(page);
        const row = rowOf(s, 'Liftoff');
        await row.waitFor();
        expect(await noOverflow(page)).toBeLessThanOrEqual(0);
        for (const button of await row.getByRole('button').all()) {
          const box = (await button.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
        }
        await row.getByRole('button', { name: lang === 'en' ? 'History: Liftoff' : '紀錄: Liftoff' }).click();
        await s.getByTestId('fetch-row').first().waitFor();
        expect(await noOverflow(page)).toBeLessThanOrEqual(0);
        // the address field and its Check button sit together, not a screen apart
        const field = (await s
          .getByRole('textbox', { name: lang === 'en' ? 'Site or feed address' : '網站或訂閱源網址' })
          .boundingBox())!;
        const check = (await s
          .getByRole('button', { name: lang === 'en' ? 'Check' : '檢查', exact: true })
          .boundingBox())!;
        expect(check.y - (field.y + field.height)).toBeLessThan(40);
        // the table with the open history, at the phone's width (the full page is too tall to read)
        await s
          .locator('.table-wrap')
          .first()
          .screenshot({
            path: join(SCREENSHOTS, `admin-sources-phone-table-${lang}.png`),
            style: STATIC_TOPBAR,
          });
        await s
          .getByLabel(lang === 'en' ? 'Site or feed address' : '網站或訂閱源網址')
          .fill(`${peer.url}/blog/`);
        await s.getByRole('button', { name: lang === 'en' ? 'Check' : '檢查', exact: true }).click();
        await s.getByTestId('source-preview').waitFor();
        expect(await noOverflow(page)).toBeLessThanOrEqual(0);
        await s.locator('form.source-create').screenshot({
          path: join(SCREENSHOTS, `admin-sources-phone-form-${lang}.png`),
          style: STATIC_TOPBAR,
        });
        await shot(page, `admin-sources-phone-${lang}`);
        await context.close();
      }
    });
  },
);
