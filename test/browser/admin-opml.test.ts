import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseOpml } from 'feedsmith';
import { sources, topics } from '../../src/infrastructure/db/schema/index.js';
import { ROOT, SCREENSHOTS, VIEWPORTS, startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

const FILE = join(ROOT, 'test', 'fixtures', 'opml', 'two-topics-12-feeds.opml');

let env: BrowserEnv;
const db = () => env.api.container.database.db;

beforeAll(async () => {
  env = await startBrowserEnv();
});
afterAll(async () => {
  await env?.close();
});

type Outline = { text?: unknown; title?: unknown; xmlUrl?: unknown; outlines?: Outline[] };
/** (folder, title, URL) of every feed, sorted: what must survive an import and an export */
function feedsOf(xml: string): string[] {
  const out: string[] = [];
  const walk = (list: Outline[] | undefined, folder: string) => {
    for (const o of list ?? []) {
      if (typeof o.xmlUrl === 'string') out.push(`${folder} | ${String(o.title ?? o.text)} | ${o.xmlUrl}`);
      else walk(o.outlines, String(o.text ?? o.title));
    }
  };
  walk(parseOpml(xml).body?.outlines as Outline[] | undefined, '');
  return out.sort();
}

const TEXT = {
  en: {
    preview: 'Preview import',
    confirm: 'Confirm import',
    export: 'Export OPML',
    toCreate: 'Sources to create',
    created: 'Sources created',
    planOf: 'Preview of two-topics-12-feeds.opml',
    done: 'Imported two-topics-12-feeds.opml.',
    entities: 'declares XML entities',
    choose: 'Choose a file…',
    duplicate: 'already a source (topic “Climate Research”)',
  },
  'zh-TW': {
    preview: '預覽匯入',
    confirm: '確認匯入',
    export: '匯出 OPML',
    toCreate: '將新增的來源',
    created: '已新增的來源',
    planOf: 'two-topics-12-feeds.opml 的預覽',
    done: '已匯入 two-topics-12-feeds.opml。',
    entities: '檔案宣告了 XML 實體',
    choose: '選擇檔案…',
    duplicate: '已是來源（主題「Climate Research」）',
  },
} as const;

const section = (page: Page) => page.locator('section[aria-labelledby="opml-title"]');
const count = async (page: Page, label: string) =>
  Number(
    await section(page)
      .locator('.opml-counts > div', { has: page.locator('dt', { hasText: label }) })
      .locator('dd')
      .innerText(),
  );
/** full-page screenshots from the top, so the sticky header stays at the top of the picture */
const shoot = async (page: Page, name: string) => {
  await page.evaluate(() => window.scrollTo(0, 0));
  await env.screenshot(page, name);
};
const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe.sequential('admin: OPML import and export in Chromium', () => {
  for (const lang of ['en', 'zh-TW'] as const) {
    for (const device of ['desktop', 'phone'] as const) {
      it(`imports 2 topics and 12 feeds with a preview, exports them and gets the same file back (${lang}, ${device})`, async () => {
        await db().delete(topics);
        const text = TEXT[lang];
        const { page, context } = await env.newContext({ as: 'admin', viewport: VIEWPORTS[device] });
        if (lang === 'zh-TW') await page.addInitScript(() => localStorage.setItem('locale', 'zh-TW'));
        await page.goto('/admin/catalog');
        const s = section(page);
        expect(await s.locator('.opml-choose').innerText()).toBe(text.choose);
        await s.locator('input[type="file"]').setInputFiles(FILE);
        expect(await s.getByTestId('opml-file-name').innerText()).toBe('two-topics-12-feeds.opml');
        await s.getByRole('button', { name: text.preview }).click();

        // the preview: two topics to create, twelve sources, nothing saved yet
        const preview = s.getByTestId('opml-preview');
        await preview.waitFor();
        expect(await preview.getByRole('status').innerText()).toContain(text.planOf);
        expect(await count(page, text.toCreate)).toBe(12);
        expect(await s.getByTestId('opml-sources').locator('tbody tr').count()).toBe(12);
        const topicRows = await s.getByTestId('opml-topics').locator('tbody tr').allInnerTexts();
        expect(topicRows.map((r) => r.split(/\s/)[0])).toEqual(['Climate', 'Quantum']);
        expect(await s.getByTestId('opml-sources').innerText()).toContain('量子計算期刊');
        expect(await db().select().from(sources)).toEqual([]);
        expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
        await shoot(page, `admin-opml-preview-${device}-${lang}`);
        // the section alone (a phone's full page is too tall to read)
        if (device === 'phone')
          await s.screenshot({ path: join(SCREENSHOTS, `admin-opml-section-phone-${lang}.png`) });

        // confirm: the result, the rows in the database and in the sources table above
        await s.getByRole('button', { name: text.confirm }).click();
        const result = s.getByTestId('opml-result');
        await result.waitFor();
        expect(await result.getByRole('status').innerText()).toBe(text.done);
        expect(await count(page, text.created)).toBe(12);
        expect(await db().select().from(sources)).toHaveLength(12);
        await expect
          .poll(() =>
            page
              .locator('section[aria-labelledby="sources-title"] tbody tr[data-testid="sources-row"]')
              .count(),
          )
          .toBe(12);
        expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
        await shoot(page, `admin-opml-result-${device}-${lang}`);

        // export: a dated .opml download with the same folders and feeds as the imported file
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          s.getByRole('link', { name: text.export }).click(),
        ]);
        expect(download.suggestedFilename()).toMatch(/^article-intel-sources-\d{4}-\d{2}-\d{2}\.opml$/);
        const exported = readFileSync((await download.path())!, 'utf8');
        expect(feedsOf(exported)).toEqual(feedsOf(readFileSync(FILE, 'utf8')));
        expect(feedsOf(exported)).toHaveLength(12);
        expect(((parseOpml(exported).body?.outlines ?? []) as Outline[]).map((o) => o.text)).toEqual([
          'Climate Research',
          'Quantum Computing',
        ]);

        // the same file again: every feed a duplicate, nothing to confirm
        await s.getByRole('button', { name: text.preview }).click();
        await s.getByTestId('opml-duplicates').waitFor();
        expect(await s.getByTestId('opml-duplicates').locator('tbody tr').count()).toBe(12);
        expect(await s.getByTestId('opml-duplicates').innerText()).toContain(text.duplicate);
        expect(await s.getByRole('button', { name: text.confirm }).isDisabled()).toBe(true);
        if (device === 'desktop') await shoot(page, `admin-opml-duplicates-${device}-${lang}`);

        // a hostile file: refused with the reason, in the page's language
        await s.locator('input[type="file"]').setInputFiles({
          name: 'bomb.opml',
          mimeType: 'text/x-opml',
          buffer: Buffer.from(
            '<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><opml version="2.0"><body><outline text="&b;"/></body></opml>',
          ),
        });
        await s.getByRole('button', { name: text.preview }).click();
        await expect.poll(() => s.getByRole('alert').innerText()).toContain(text.entities);
        expect(await s.getByTestId('opml-preview').count()).toBe(0);
        await context.close();
      });
    }
  }
});
