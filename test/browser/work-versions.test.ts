import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startBrowserEnv, type BrowserEnv } from './helpers/browser.js';
import { makeArticle, makeTopic, type ArticleRow } from '../helpers/article-factories.js';
import { WorkLinker } from '../../src/application/works/work-linker.service.js';
import { DrizzleWorkStore } from '../../src/infrastructure/db/repositories/work.repository.js';

/**
 * A work's card in the reader's list: one card per work by default (its published version),
 * "2 versions · covered by 1" opens the work's versions and coverage in the shared dialog; reading
 * the preprint from there marks the whole work read; "Show every version" lists each version.
 */
let env: BrowserEnv;
let topicId = '';
let preprint: ArticleRow;
let published: ArticleRow;
let news: ArticleRow;

beforeAll(async () => {
  env = await startBrowserEnv();
  const db = env.api.container.database.db;
  topicId = (await makeTopic(db, { name: 'Materials' })).id;
  const day = (n: number) => new Date(Date.UTC(2026, 2, n));
  preprint = await makeArticle(db, {
    topicId,
    title: 'Room-temperature magnet from layered nickelates (preprint)',
    arxivId: '2403.01234',
    publishedAt: day(1),
    scrapedAt: day(1),
  });
  published = await makeArticle(db, {
    topicId,
    title: 'Room-temperature magnetism in layered nickelates',
    doi: '10.1000/nature.2026.77',
    publishedAt: day(8),
    scrapedAt: day(8),
  });
  news = await makeArticle(db, {
    topicId,
    title: 'A magnet that works at room temperature',
    content: 'The team reports (doi:10.1000/nature.2026.77) a magnet that keeps its order when warm.',
    publishedAt: day(9),
    scrapedAt: day(9),
  });
  const linker = new WorkLinker(new DrizzleWorkStore(db), env.api.container.clock, pino({ level: 'silent' }));
  await linker.recordLinks([
    { from: 'doi:10.1000/nature.2026.77', to: 'arxiv:2403.01234', evidence: 'crossref:has-preprint' },
  ]);
  await linker.linkArticles([preprint.id, published.id, news.id]);
});
afterAll(async () => {
  await env?.close();
});

describe('a work in the reader’s hands', () => {
  it('the card shows versions and coverage, opens them, and reading the preprint marks the work read', async () => {
    const { page, context } = await env.newContext({ as: 'user' });
    await page.goto(`/articles?topic=${topicId}&sort=published_at&order=desc`);
    const card = page.locator(`article[data-article-id="${published.id}"]`);
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.getAttribute('data-read')).toBe('false');
    // one card per work: the published version stands for the preprint; the coverage is its own work
    const cards = page.getByTestId('article-list').locator('article[data-article-id]');
    expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-article-id')))).toEqual([
      news.id,
      published.id,
    ]);
    expect(await page.getByTestId('all-versions').isChecked()).toBe(false);
    const note = card.getByTestId('work-note');
    expect(await note.innerText()).toBe('2 versions · covered by 1');

    await note.click();
    const dialog = page.getByTestId('work-versions');
    await expect.poll(() => dialog.getByTestId('work-version').count()).toBe(3);
    expect(await dialog.locator('h2').first().innerText()).toBe(published.title);
    const rows = dialog.getByTestId('work-version');
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-role')))).toEqual([
      'published',
      'preprint',
      'coverage',
    ]);
    expect(await rows.nth(1).innerText()).toContain('Preprint');
    expect(await dialog.innerText()).toContain('Covered by 1');
    await env.screenshot(page, 'work-versions-en');

    // open the preprint: the reader view marks it read, and with it every version of the work
    await rows.nth(1).getByRole('link', { name: preprint.title }).click();
    await page.waitForURL(`**/articles/${preprint.id}**`);
    await expect.poll(() => page.getByTestId('read-toggle').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('back-link').click();
    await expect.poll(() => card.getAttribute('data-read')).toBe('true');
    expect(await page.locator(`article[data-article-id="${preprint.id}"]`).count()).toBe(0);
    // the coverage is another work: still unread
    expect(await page.locator(`article[data-article-id="${news.id}"]`).getAttribute('data-read')).toBe(
      'false',
    );

    // every version as its own card, on request (kept in the URL). The CPU slowed down as on a busy
    // machine: the list's re-render (a transition) lags, and the box shows the click at once anyway
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
    await page.getByTestId('all-versions').check();
    await page.waitForURL(/versions=all/);
    await expect
      .poll(() => cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-article-id'))))
      .toEqual([news.id, published.id, preprint.id]);
    expect(await page.locator(`article[data-article-id="${preprint.id}"]`).getAttribute('data-read')).toBe(
      'true',
    );
    await page.getByTestId('all-versions').uncheck();
    await expect.poll(() => cards.count()).toBe(2);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

    // the same dialog in zh-TW
    await page.getByLabel('Language').selectOption('zh-TW');
    await card.getByTestId('work-note').click();
    await expect.poll(() => dialog.getByTestId('work-version').count()).toBe(3);
    expect(await dialog.getByTestId('work-version').nth(1).innerText()).toContain('預印本');
    await env.screenshot(page, 'work-versions-zh-TW');
    await context.close();
  });
});
