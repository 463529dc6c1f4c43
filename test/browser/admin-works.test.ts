import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBrowserEnv, VIEWPORTS, type BrowserEnv } from './helpers/browser.js';
import { makeArticle, makeTopic, type ArticleRow } from '../helpers/article-factories.js';

/**
 * Issue 28's admin screen (Admin › Works): a work the linker merged wrongly (two unrelated papers
 * joined by a bad identifier link) is split through the UI, and two works of one paper (a preprint
 * and its published version no API linked) are merged through it. After each, GET /works/{id}
 * answers the new shape; the work linker run again over every article keeps the admin's choice.
 * Once in English at desktop width (reached from the reader's versions dialog), once in zh-TW on a
 * phone (reached from the admin navigation).
 */
let env: BrowserEnv;
let topicId = '';

beforeAll(async () => {
  env = await startBrowserEnv();
  topicId = (await makeTopic(env.api.container.database.db, { name: 'Physics' })).id;
});
afterAll(async () => {
  await env?.close();
});

interface WorkOut {
  id: string;
  versions: { article_id: string; role: string }[];
}

async function getWork(id: string): Promise<WorkOut> {
  const res = await env.api.app.inject({ url: `/works/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<WorkOut>();
}
const members = (w: WorkOut) =>
  w.versions
    .filter((v) => v.role !== 'coverage')
    .map((v) => v.article_id)
    .sort();

interface Case {
  /** graphene paper, published and preprint: one work */
  aPublished: ArticleRow;
  aPreprint: ArticleRow;
  /** an unrelated paper a bad link put in the graphene work */
  stray: ArticleRow;
  /** one paper whose two versions no API linked: two works */
  cPublished: ArticleRow;
  cPreprint: ArticleRow;
}

/** The case for one run; `n` keeps identifiers and titles of the two runs apart. */
async function seed(n: number): Promise<Case> {
  const db = env.api.container.database.db;
  const day = (d: number) => new Date(Date.UTC(2026, 3, d));
  const common = { topicId, source: 'arXiv' };
  const aPreprint = await makeArticle(db, {
    ...common,
    title: `Superconductivity in twisted graphene trilayers ${n} (preprint)`,
    arxivId: `2404.0${n}001`,
    publishedAt: day(1),
    scrapedAt: day(1),
  });
  const aPublished = await makeArticle(db, {
    ...common,
    source: 'Nature',
    title: `Superconductivity in twisted graphene trilayers ${n}`,
    doi: `10.1000/nature.${n}.1`,
    publishedAt: day(9),
    scrapedAt: day(9),
  });
  const stray = await makeArticle(db, {
    ...common,
    title: `Soil microbes under drought stress ${n}`,
    arxivId: `2404.0${n}002`,
    publishedAt: day(3),
    scrapedAt: day(3),
  });
  const cPreprint = await makeArticle(db, {
    ...common,
    title: `Quantum error correction with cat qubits ${n} (preprint)`,
    arxivId: `2405.0${n}003`,
    publishedAt: day(2),
    scrapedAt: day(2),
  });
  const cPublished = await makeArticle(db, {
    ...common,
    source: 'Science',
    title: `Error-corrected cat qubits ${n}`,
    doi: `10.1000/science.${n}.3`,
    publishedAt: day(12),
    scrapedAt: day(12),
  });
  const linker = env.api.container.services.workLinker;
  await linker.recordLinks([
    { from: `doi:10.1000/nature.${n}.1`, to: `arxiv:2404.0${n}001`, evidence: 'crossref:has-preprint' },
    // the wrong one: an answer naming an unrelated paper as a version
    { from: `doi:10.1000/nature.${n}.1`, to: `arxiv:2404.0${n}002`, evidence: 'openalex:locations' },
  ]);
  await relink({ aPublished, aPreprint, stray, cPublished, cPreprint });
  return { aPublished, aPreprint, stray, cPublished, cPreprint };
}

/** The work linker over every article of the case again, as a later run would. */
async function relink(c: Case) {
  await env.api.container.services.workLinker.linkArticles(Object.values(c).map((a: ArticleRow) => a.id));
}

async function shot(page: Page, name: string) {
  await env.screenshot(page, name);
}

describe.each([
  { lang: 'en' as const, viewport: VIEWPORTS.desktop, n: 1 },
  { lang: 'zh-TW' as const, viewport: VIEWPORTS.phone, n: 2 },
])('Admin › Works ($lang)', ({ lang, viewport, n }) => {
  const en = lang === 'en';
  const suffix = `${lang}${viewport === VIEWPORTS.phone ? '-phone' : ''}`;

  it('splits a wrongly merged work and merges two works of one paper; later linking keeps both', async () => {
    const c = await seed(n);
    // the bad link joined the stray paper into the graphene work
    const before = await getWork(c.aPublished.id);
    expect(members(before)).toEqual([c.aPublished.id, c.aPreprint.id, c.stray.id].sort());
    expect((await getWork(c.cPublished.id)).id).not.toBe((await getWork(c.cPreprint.id)).id);

    const { context, page } = await env.newContext({ as: 'admin', viewport });
    if (!en) await context.addInitScript(() => localStorage.setItem('locale', 'zh-TW'));

    if (en) {
      // from the reader: the work's versions dialog links admins to the work's page
      await page.goto(`/articles?topic=${topicId}&sort=published_at&order=desc`);
      const card = page.locator(`article[data-article-id="${c.aPublished.id}"]`);
      await card.getByTestId('work-note').click();
      const dialog = page.getByTestId('work-versions');
      const manage = dialog.getByTestId('manage-work');
      expect(await manage.innerText()).toBe('Manage this work (split, merge)');
      await shot(page, `admin-works-reader-dialog-${suffix}`);
      await manage.click();
      await page.waitForURL(`**/admin/works?work=${before.id}`);
    } else {
      // from the admin navigation, then a search by title
      await page.goto('/articles');
      await page.locator('.menu-toggle').click();
      await page.getByRole('link', { name: '作品', exact: true }).click();
      await page.waitForURL('**/admin/works');
      // the URL changes before the lazily loaded page replaces the one before it
      await expect.poll(() => page.locator('h1').innerText()).toBe('作品');
      await page.getByTestId('work-find').getByRole('searchbox').fill(`drought stress ${n}`);
      await page.getByTestId('work-find').getByRole('button').click();
      const result = page.locator(`[data-testid="work-result"][data-article-id="${c.stray.id}"]`);
      await result.waitFor();
      expect(await result.getAttribute('data-work-id')).toBe(before.id);
      await result.getByTestId('open-work').click();
    }

    const panel = page.getByTestId('work-panel');
    const rows = panel.getByTestId('work-version');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await panel.getAttribute('data-work-id')).toBe(before.id);
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-role')))).toEqual([
      'published',
      'preprint',
      'preprint',
    ]);
    const first = await rows.first().innerText();
    expect(first).toContain('Nature');
    expect(first).toContain(en ? 'Published' : '正式發表');
    expect(first).toContain(en ? 'Apr 9, 2026' : '2026年4月9日');
    await shot(page, `admin-works-${suffix}`);

    // selecting every version cannot split (one must stay)
    const split = panel.getByTestId('split');
    expect(await split.isDisabled()).toBe(true);
    for (const r of await rows.all()) await r.getByRole('checkbox').check();
    expect(await split.isDisabled()).toBe(true);
    expect(await panel.getByTestId('split-all').innerText()).toBe(
      en ? 'Leave at least one version in this work.' : '請至少在此作品中保留一個版本。',
    );
    for (const r of await rows.all()) await r.getByRole('checkbox').uncheck();

    // split the stray paper off: the confirmation says what happens and that it is remembered
    await panel.locator(`tr[data-article-id="${c.stray.id}"]`).getByRole('checkbox').check();
    expect(await panel.getByTestId('selected-count').innerText()).toBe(
      en ? '1 version selected' : '已選取 1 個版本',
    );
    await split.click();
    const confirm = page.getByTestId('split-confirm');
    await confirm.waitFor();
    const said = await confirm.innerText();
    expect(said).toContain(c.stray.title);
    expect(said).toContain(en ? 'remembered' : '會被記住');
    expect(said).toContain(en ? 'Left in this work: 2 versions.' : '此作品保留 2 個版本');
    await shot(page, `admin-works-split-confirm-${suffix}`);
    // Escape closes the shared dialog without splitting, and gives the focus back
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('split');
    expect(members(await getWork(before.id))).toHaveLength(3);
    await split.click();
    await confirm.getByTestId('confirm').click();
    await confirm.waitFor({ state: 'detached' });

    const outcome = page.getByTestId('work-outcome');
    expect(await outcome.innerText()).toContain(
      en
        ? 'Split off 1 version into a new work. Remembered: later linking keeps them apart.'
        : '已將 1 個版本拆分為新作品。已記住：之後的連結會讓它們保持分開。',
    );
    await expect.poll(() => rows.count()).toBe(2);
    const kept = await getWork(c.aPublished.id);
    const strayWork = await getWork(c.stray.id);
    expect(members(kept)).toEqual([c.aPublished.id, c.aPreprint.id].sort());
    expect(members(strayWork)).toEqual([c.stray.id]);
    expect(strayWork.id).not.toBe(kept.id);
    expect(await panel.getAttribute('data-work-id')).toBe(kept.id);
    await shot(page, `admin-works-split-done-${suffix}`);

    // the new work opens from the notice
    await page.getByTestId('open-new-work').click();
    await expect.poll(() => panel.getAttribute('data-work-id')).toBe(strayWork.id);
    expect(await rows.count()).toBe(1);

    // a later run of the linker, with the bad link still stored, keeps them apart
    await relink(c);
    expect(members(await getWork(c.aPublished.id))).toEqual([c.aPublished.id, c.aPreprint.id].sort());
    expect(members(await getWork(c.stray.id))).toEqual([c.stray.id]);

    // merge: open the published cat-qubit paper by pasting its address, find its preprint by title
    const find = page.getByTestId('work-find').getByRole('searchbox');
    await find.fill(`${env.webUrl}/articles/${c.cPublished.id}`);
    await page.getByTestId('work-find').getByRole('button').click();
    await expect.poll(() => panel.getAttribute('data-work-id')).toBe(c.cPublished.id);
    expect(await rows.count()).toBe(1);
    const merge = panel.getByTestId('merge');
    await merge.getByRole('searchbox').fill(`cat qubits ${n} preprint`);
    await merge.getByRole('button').first().click();
    const picks = merge.getByTestId('work-result');
    await expect.poll(() => picks.count()).toBeGreaterThan(0);
    const pick = merge.locator(`[data-testid="work-result"][data-article-id="${c.cPreprint.id}"]`);
    await pick.getByTestId('merge-pick').click();
    const mergeConfirm = page.getByTestId('merge-confirm');
    await mergeConfirm.waitFor();
    const asked = await mergeConfirm.innerText();
    expect(asked).toContain(c.cPreprint.title);
    expect(asked).toContain(c.cPublished.title);
    expect(asked).toContain(en ? 'one work with 2 versions' : '合併後為一個有 2 個版本的作品');
    expect(asked).toContain(en ? 'remembered' : '會被記住');
    await shot(page, `admin-works-merge-confirm-${suffix}`);
    await mergeConfirm.getByTestId('confirm').click();
    await mergeConfirm.waitFor({ state: 'detached' });
    expect(await outcome.innerText()).toContain(
      en ? 'Remembered: later linking keeps them together.' : '已記住：之後的連結會讓它們保持在一起。',
    );
    await expect.poll(() => rows.count()).toBe(2);
    const merged = await getWork(c.cPublished.id);
    expect(members(merged)).toEqual([c.cPublished.id, c.cPreprint.id].sort());
    expect((await getWork(c.cPreprint.id)).id).toBe(merged.id);
    expect(await panel.getAttribute('data-work-id')).toBe(merged.id);
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-role')))).toEqual([
      'published',
      'preprint',
    ]);
    await shot(page, `admin-works-merge-done-${suffix}`);

    // a later run keeps them together (no identifier links them)
    await relink(c);
    expect(members(await getWork(c.cPublished.id))).toEqual([c.cPublished.id, c.cPreprint.id].sort());
    expect(members(await getWork(c.aPublished.id))).toEqual([c.aPublished.id, c.aPreprint.id].sort());

    // errors of the api in the page's language: an unknown id, a split of what left meanwhile
    await find.fill(randomUUID());
    await page.getByTestId('work-find').getByRole('button').click();
    const error = page.locator('[data-error-code="work_not_found"]');
    expect(await error.innerText()).toContain(en ? 'This work does not exist (any more).' : '此作品不存在');

    // the graphene work with the stray paper again (3 versions); the admin selects the stray one…
    const other = await env.api.login('admin');
    const post = async (url: string, payload: object) => {
      const res = await env.api.app.inject({ method: 'POST', url, headers: other.headers, payload });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ work_id?: string }>();
    };
    const rejoined = (await post('/admin/works/merge', { work_ids: [kept.id, strayWork.id] })).work_id!;
    await find.fill(rejoined);
    await page.getByTestId('work-find').getByRole('button').click();
    await expect.poll(() => rows.count()).toBe(3);
    await panel.locator(`tr[data-article-id="${c.stray.id}"]`).getByRole('checkbox').check();
    // …but another admin splits it off first: the work stays, the stray paper is no member any more
    await post(`/admin/works/${rejoined}/split`, { article_ids: [c.stray.id] });
    await panel.getByTestId('split').click();
    await page.getByTestId('split-confirm').getByTestId('confirm').click();
    const refused = page.getByTestId('split-confirm').getByRole('alert');
    expect(await refused.innerText()).toBe(
      en
        ? 'Choose some, not all, of the work’s own versions to split off.'
        : '請選擇此作品自身的部分版本（不可全選）來拆分。',
    );
    await shot(page, `admin-works-error-${suffix}`);
    // closing the refusal shows the work as it is now
    await page.keyboard.press('Escape');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await panel.locator(`tr[data-article-id="${c.stray.id}"]`).count()).toBe(0);
    await context.close();
  });
});
