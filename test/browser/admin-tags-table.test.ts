import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import { link, linkRows, makeGroup, makeTag, seedTagsAtScale, tagNamed } from '../helpers/tag-factories.js';
import { tagsMessages } from '../../web/src/features/admin-tags/messages.js';
import { translator } from '../../web/src/lib/i18n-core.js';
import { startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';

/** the page answers through the api on a shared machine: give it time */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

// The tags table journey of issue 18 (deliverable 4): search, sort, select, preview and confirm a
// bulk merge, counts after it; in English and Traditional Chinese, on a desktop and on a phone;
// and the page with 5,000 tags and 100,000 links.
let env: BrowserEnv;
const db = () => env.api.container.database.db;

beforeAll(async () => {
  env = await startBrowserEnv();
});
afterAll(async () => {
  await env?.close();
});

type Lang = 'en' | 'zh-TW';

/**
 * A topic of its own per run: "llm" (Models) on a1,a2; "llms" on a2,a3; "large language models"
 * (Methods) on a3,a4; "agents" on a1; 量子位元 on a5,a6; 量子計算 on a5; and 60 fillers without
 * articles, so that the table has two pages.
 */
async function seedCuration(label: string) {
  const topic = await makeTopic(db(), { name: `Curation ${label}` });
  const models = await makeGroup(db(), topic.id, { displayName: 'Models', colorHex: '#2563eb' });
  const methods = await makeGroup(db(), topic.id, { displayName: 'Methods', colorHex: '#16a34a' });
  const a = [];
  for (let i = 0; i < 7; i++) {
    a.push(await makeArticle(db(), { topicId: topic.id, title: `Curation paper ${label} ${i}` }));
  }
  const llm = await makeTag(db(), topic.id, 'llm', models.id);
  const llms = await makeTag(db(), topic.id, 'llms');
  const lang = await makeTag(db(), topic.id, 'large language models', methods.id);
  const agents = await makeTag(db(), topic.id, 'agents');
  const qubit = await makeTag(db(), topic.id, '量子位元');
  const qc = await makeTag(db(), topic.id, '量子計算');
  await link(db(), a[1]!.id, llm.id, llms.id);
  await link(db(), a[0]!.id, llm.id, agents.id);
  await link(db(), a[2]!.id, llms.id, lang.id);
  await link(db(), a[3]!.id, lang.id);
  await link(db(), a[5]!.id, qubit.id, qc.id);
  await link(db(), a[6]!.id, qubit.id);
  for (let i = 1; i <= 60; i++) await makeTag(db(), topic.id, `filler-${String(i).padStart(2, '0')}`);
  return { topic, llm, llms, lang };
}

const rowNames = (page: Page) =>
  page
    .locator('[data-testid="tag-table"] tbody tr')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-tag-name')));
const settled = (page: Page) =>
  poll(() =>
    page.locator('[data-testid="tag-table"][aria-busy="false"], .tag-table-view .state-empty').count(),
  ).toBe(1);
const countOf = (page: Page, name: string) => page.locator(`tr[data-tag-name="${name}"] td.num`).innerText();

async function journey(lang: Lang, viewport: 'desktop' | 'phone') {
  const { t } = translator(tagsMessages, lang);
  const { topic, llm } = await seedCuration(`${lang}-${viewport}`);
  const { page, context } = await env.newContext({ as: 'admin', viewport: VIEWPORTS[viewport] });
  if (lang === 'zh-TW') await context.addInitScript(() => localStorage.setItem('locale', 'zh-TW'));
  await page.goto(`/admin/tags?topic=${topic.id}`);
  await settled(page);
  const shot = (step: string) => env.screenshot(page, `admin-tags-table-${step}-${viewport}-${lang}`);

  // the first page of two, names ascending
  expect(await page.getByTestId('tag-range').innerText()).toBe(
    t('tags.range', { from: 1, to: 50, total: 66 }),
  );
  expect((await rowNames(page)).slice(0, 3)).toEqual(['agents', 'filler-01', 'filler-02']);
  expect(await countOf(page, 'agents')).toBe(t('tags.articles', { count: 1 }));
  await shot('first-page');

  // sort by article count: most first, then fewest first (column headers on a desktop, a select
  // on a phone, where the header row is hidden)
  const sortBy = async (order: 'desc' | 'asc') =>
    viewport === 'desktop'
      ? page.getByRole('button', { name: t('tags.col.articles'), exact: true }).click()
      : page.getByTestId('tag-sort').selectOption(`article_count:${order}`);
  await sortBy('desc');
  await poll(async () => (await rowNames(page)).slice(0, 5)).toEqual([
    'large language models',
    'llm',
    'llms',
    '量子位元',
    'agents',
  ]);
  expect(await page.locator('th[aria-sort="descending"]').innerText()).toContain(t('tags.col.articles'));
  await sortBy('asc');
  await poll(() => page.locator('th[aria-sort="ascending"]').count()).toBe(1);
  await settled(page);
  expect(await countOf(page, (await rowNames(page))[0]!)).toBe(t('tags.articles', { count: 0 }));

  // search: case-insensitive, and CJK
  const search = page.getByTestId('tag-search');
  await search.fill('LLM');
  await poll(() => rowNames(page)).toEqual(['llm', 'llms']);
  await search.fill('量子');
  await poll(() => rowNames(page)).toEqual(['量子計算', '量子位元']);

  // select "llm" and "llms" (keyboard on a desktop, taps on a phone), then "large language models"
  await search.fill('llm');
  await poll(() => rowNames(page)).toEqual(['llm', 'llms']);
  if (viewport === 'desktop') {
    await page.locator('tr[data-tag-name="llm"]').focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-tag-name'))).toBe('llms');
  } else {
    await page.getByLabel(t('tags.selectTag', { name: 'llms' }), { exact: true }).check();
    await page.getByLabel(t('tags.selectTag', { name: 'llm' }), { exact: true }).check();
  }
  await search.fill('language');
  await poll(() => rowNames(page)).toEqual(['large language models']);
  await page.getByLabel(t('tags.selectTag', { name: 'large language models' })).check();
  const bar = page.getByTestId('bulk-bar');
  expect(await bar.locator('strong').innerText()).toBe(t('tags.selected', { count: 3 }));

  // merge into "llm": the server's preview says exactly what will change
  await bar.getByTestId('bulk-merge-target').selectOption(llm.id);
  // the bulk bar fits the screen (its selects hold long names)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    VIEWPORTS[viewport].width,
  );
  await shot('selected');
  await bar.getByRole('button', { name: t('tags.mergeButton') }).click();
  const preview = page.getByTestId('tag-preview');
  await poll(() => preview.getByTestId('merge-preview').count()).toBe(1);
  expect(await preview.locator('[data-figure="moved"]').innerText()).toBe(
    t('tags.preview.linksMoved', { name: 'llm', count: 2 }),
  );
  expect(await preview.locator('[data-figure="dropped"]').innerText()).toBe(
    t('tags.preview.linksDropped', { name: 'llm', count: 2 }),
  );
  expect(await preview.locator('[data-figure="count"]').innerText()).toBe(
    t('tags.preview.countChange', { name: 'llm', before: 2, after: 4 }),
  );
  expect(
    await preview
      .getByTestId('preview-removed')
      .locator('li')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-tag-name'))),
  ).toEqual(['large language models', 'llms']);
  await shot('merge-preview');
  // nothing changed yet
  expect(await tagNamed(db(), topic.id, 'llms')).not.toBeNull();
  expect(await linkRows(db(), topic.id)).toBe(10);

  await preview.getByTestId('tag-preview-confirm').click();
  await poll(() => page.locator('.tags-notice').innerText()).toBe(
    t('tags.done.merged', { name: 'llm', count: 2 }),
  );
  expect(await bar.count()).toBe(0);
  await search.fill('llm');
  await poll(() => rowNames(page)).toEqual(['llm']);
  expect(await countOf(page, 'llm')).toBe(t('tags.articles', { count: 4 }));
  expect(await tagNamed(db(), topic.id, 'llms')).toBeNull();
  expect(await tagNamed(db(), topic.id, 'large language models')).toBeNull();
  expect(await linkRows(db(), topic.id)).toBe(8);

  if (viewport === 'phone') {
    // stacked rows: nothing wider than the screen, the checkbox and both actions on it
    const width = VIEWPORTS.phone.width;
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    const row = page.locator('tr[data-tag-name="llm"]');
    for (const control of [
      row.getByRole('checkbox'),
      row.getByRole('button', { name: t('tags.edit', { name: 'llm' }) }),
      row.getByRole('button', { name: t('tags.delete', { name: 'llm' }) }),
    ]) {
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
  }
  await shot('after-merge');
  await context.close();
}

describe.sequential('the tags table in Chromium', () => {
  for (const lang of ['en', 'zh-TW'] as const) {
    for (const viewport of ['desktop', 'phone'] as const) {
      it(`searches, sorts, selects and bulk-merges with a preview (${lang}, ${viewport})`, () =>
        journey(lang, viewport));
    }
  }

  it('is driven by the keyboard: arrows, Space, Shift+Space for a range, Enter to edit', async () => {
    const { topic } = await seedCuration('keys');
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto(`/admin/tags?topic=${topic.id}`);
    await settled(page);
    // Tab reaches the first row after the column headers: one tab stop for all the rows, with a
    // visible focus ring; its own controls follow, then the pager
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-tag-name'));
    const focusedLabel = () =>
      page.evaluate(
        () => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent,
      );
    await page.getByTestId('select-page').focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab'); // the four sort buttons
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('agents');
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Select agents');
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Edit agents');
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Delete agents');
    await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('Next page'); // Previous is disabled on the first page
    await page.locator('tr[data-tag-name="agents"]').focus();
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Shift+Space');
    const selected = () =>
      page
        .locator('tr[data-selected="true"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-tag-name')));
    expect(await selected()).toEqual(['agents', 'filler-01', 'filler-02', 'filler-03']);
    // Shift+click on a checkbox extends the range too
    await page.getByLabel('Select filler-05').click({ modifiers: ['Shift'] });
    expect(await selected()).toHaveLength(6);
    // the page checkbox: all of the page, then none
    await page.getByTestId('select-page').check();
    expect(await selected()).toHaveLength(50);
    await page.getByTestId('select-page').uncheck();
    expect(await selected()).toEqual([]);
    // Enter edits, Escape closes; End and Home jump
    await page.locator('tr[data-tag-name="agents"]').focus();
    await page.keyboard.press('End');
    expect(await focused()).toBe((await rowNames(page)).at(-1));
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    const editor = page.getByTestId('tag-edit');
    await poll(() => editor.isVisible()).toBe(true);
    expect(await editor.getByLabel('Name').inputValue()).toBe('agents');
    await page.keyboard.press('Escape');
    await poll(() => editor.count()).toBe(0);
    // the second page, by its button
    await page.getByRole('button', { name: 'Next page' }).click();
    await poll(() => page.getByTestId('tag-range').innerText()).toBe('51–66 of 66');
    expect(page.url()).toContain('page=2');
    await context.close();
  });
});

describe.sequential('the tags page with 5,000 tags and 100,000 links in Chromium', () => {
  let topicId: string;
  beforeAll(async () => {
    topicId = (await makeTopic(db(), { name: 'Tags at scale' })).id;
    const { links } = await seedTagsAtScale(db(), topicId, {
      tags: 5000,
      articles: 2000,
      linksPerArticle: 50,
      groups: 12,
    });
    expect(links).toBe(100_000);
  }, 180_000);

  for (const viewport of ['desktop', 'phone'] as const) {
    it(`shows the first page promptly, with a bounded height (${viewport})`, async () => {
      const { page, context } = await env.newContext({ as: 'admin', viewport: VIEWPORTS[viewport] });
      // warm the SPA's code once, then time a fresh navigation to the first row
      await page.goto(`/admin/tags?topic=${topicId}&tab=groups`);
      await page.getByTestId('tag-board').waitFor();
      const started = Date.now();
      await page.goto(`/admin/tags?topic=${topicId}`);
      await page.locator('tr[data-tag-name="tag-00001"]').waitFor();
      const firstPageMs = Date.now() - started;
      expect(await page.getByTestId('tag-range').innerText()).toBe('1–50 of 5,000');
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      console.info(`[tags page ${viewport}] first page ${firstPageMs} ms, height ${height} px`);
      expect(firstPageMs).toBeLessThan(5000);
      expect(height).toBeLessThan(viewport === 'desktop' ? 3500 : 9000);
      expect(await rowNames(page)).toHaveLength(50);

      // sorting 5,000 by article count and jumping pages stay quick
      const sortStarted = Date.now();
      if (viewport === 'desktop') await page.getByRole('button', { name: 'Articles', exact: true }).click();
      else await page.getByTestId('tag-sort').selectOption('article_count:desc');
      await poll(() => page.locator('th[aria-sort="descending"]').count()).toBe(1);
      await settled(page);
      const sortMs = Date.now() - sortStarted;
      console.info(`[tags page ${viewport}] sort by article count ${sortMs} ms`);
      expect(sortMs).toBeLessThan(5000);
      await page.getByTestId('tag-search').fill('tag-049');
      await poll(() => page.getByTestId('tag-range').innerText()).toBe('1–50 of 100');

      // the groups tab lists the groups with counts, not 5,000 tags
      await page.getByRole('tab', { name: 'Groups' }).click();
      await page.getByTestId('tag-board').waitFor();
      const boardHeight = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(boardHeight).toBeLessThan(viewport === 'desktop' ? 2500 : 6000);
      expect(
        await page
          .locator('section.group[aria-label="Ungrouped"] [data-testid="group-tag-count"]')
          .innerText(),
      ).toBe('1,000 tags');
      await env.screenshot(page, `admin-tags-scale-groups-${viewport}`);
      await page.getByRole('tab', { name: 'Tags' }).click();
      await settled(page);
      await env.screenshot(page, `admin-tags-scale-table-${viewport}`);
      await context.close();
    });
  }
});
