import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { tagNormalizationSuggestions } from '../../src/infrastructure/db/schema/index.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import { link, makeTag } from '../helpers/tag-factories.js';
import { startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

/** the page answers through the api on a shared machine: give it time */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

let env: BrowserEnv;
let topicId: string;
let suggestionId: string;
const groupIds: Record<string, string> = {};

beforeAll(async () => {
  env = await startBrowserEnv();
  const db = env.api.container.database.db;
  const admin = await env.api.login('admin');
  const topic = await makeTopic(db, { name: 'Quantum Tags' });
  topicId = topic.id;
  for (const [name, color] of [
    ['Quantum Hardware', '#2563eb'],
    ['Quantum Devices', '#16a34a'],
    ['Algorithms', '#db2777'],
  ] as const) {
    const res = await env.api.app.inject({
      method: 'POST',
      url: '/tag-groups',
      headers: admin.headers,
      payload: { topic_id: topicId, name, display_name: name, color_hex: color },
    });
    expect(res.statusCode).toBe(201);
    groupIds[name] = res.json().id;
  }
  const article = await makeArticle(db, { topicId });
  await makeTag(db, topicId, 'qubits', groupIds['Quantum Hardware']!);
  await makeTag(db, topicId, 'photonics', groupIds['Quantum Hardware']!);
  await makeTag(db, topicId, 'qubits', groupIds['Quantum Devices']!);
  await makeTag(db, topicId, 'cryostats', groupIds['Quantum Devices']!);
  const shor = await makeTag(db, topicId, 'shor', groupIds['Algorithms']!);
  const variant = await makeTag(db, topicId, 'shors-algorithm', null);
  await link(db, article.id, variant.id);
  const [s] = await db
    .insert(tagNormalizationSuggestions)
    .values({
      topicId,
      newTagId: variant.id,
      existingTagId: shor.id,
      newTagName: 'shors-algorithm',
      existingTagName: 'shor',
      similarityScore: 0.93,
      articleId: article.id,
    })
    .returning();
  suggestionId = s!.id;
});
afterAll(async () => {
  await env?.close();
});

const group = (page: Page, name: string) => page.locator(`section.group[aria-label="${name}"]`);
/** the tag names of one group, as the table lists them (filtered by that group) */
async function tagNames(page: Page, name: string): Promise<(string | null)[]> {
  const id = name === 'Ungrouped' ? 'ungrouped' : groupIds[name];
  await page.goto(`/admin/tags?topic=${topicId}&group=${id}`);
  await page.getByTestId('tag-group-filter').waitFor();
  await poll(() => page.locator('.tag-table-view [aria-busy="true"]').count()).toBe(0);
  await poll(() => page.locator('[data-testid="tag-table"], .tag-table-view .state-empty').count()).toBe(1);
  return page
    .locator('[data-testid="tag-table"] tbody tr')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-tag-name')));
}
const openGroups = async (page: Page) => {
  await page.goto(`/admin/tags?topic=${topicId}&tab=groups`);
  await page.getByTestId('tag-board').waitFor();
};

describe.sequential('admin tag management in Chromium', () => {
  it('merges two groups with a preview, and approving a suggestion folds the variant into the existing tag', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/tags');
    await page.getByTestId('tags-topic').selectOption(topicId);
    expect(await tagNames(page, 'Quantum Devices')).toEqual(['cryostats', 'qubits']);

    // merge "Quantum Devices" into "Quantum Hardware": the preview lists the union, qubits once
    await openGroups(page);
    await poll(() => group(page, 'Quantum Devices').getByTestId('group-tag-count').innerText()).toBe(
      '2 tags',
    );
    await group(page, 'Quantum Devices').getByTestId('merge').click();
    const dialog = page.getByTestId('merge-dialog');
    await dialog.getByTestId('merge-target').selectOption(groupIds['Quantum Hardware']!);
    await poll(() => dialog.getByTestId('merge-preview-list').locator('li').allTextContents()).toEqual([
      'cryostats',
      'qubits (Quantum Devices + Quantum Hardware)',
      'photonics',
    ]);
    await dialog.getByRole('button', { name: 'Merge groups' }).click();
    await poll(() => group(page, 'Quantum Devices').count()).toBe(0);
    await poll(() => group(page, 'Quantum Hardware').getByTestId('group-tag-count').innerText()).toBe(
      '3 tags',
    );
    expect(await tagNames(page, 'Quantum Hardware')).toEqual(['cryostats', 'photonics', 'qubits']);

    // approve the suggestion: it leaves the list, the variant tag is gone, its article now counts for "shor"
    await page.goto(`/admin/tags?topic=${topicId}&tab=suggestions`);
    const suggestion = page.locator(`[data-suggestion-id="${suggestionId}"]`);
    await poll(() => suggestion.innerText()).toContain('shors-algorithm');
    expect(await suggestion.getByTestId('similarity').innerText()).toBe('Similarity 93%');
    await suggestion.getByRole('button', { name: 'Approve' }).click();
    await poll(() => suggestion.count()).toBe(0);
    expect(await tagNames(page, 'Ungrouped')).not.toContain('shors-algorithm');
    expect(await tagNames(page, 'Algorithms')).toEqual(['shor']);
    expect(await page.locator('tr[data-tag-name="shor"] td.num').innerText()).toBe('1 article');

    // both survive a reload (the server holds them, not the page)
    await page.reload();
    expect(await tagNames(page, 'Quantum Hardware')).toEqual(['cryostats', 'photonics', 'qubits']);
    await openGroups(page);
    expect(await group(page, 'Quantum Devices').count()).toBe(0);
    const [row] = await env.api.container.database.db
      .select()
      .from(tagNormalizationSuggestions)
      .where(eq(tagNormalizationSuggestions.id, suggestionId));
    expect(row!.status).toBe('approved');
    await env.screenshot(page, 'admin-tags-after-merge-desktop');
    await context.close();
  });

  it('reorders groups by drag and drop, and the order is kept', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await openGroups(page);
    const order = () =>
      page
        .locator('[data-testid="tag-board"] section.group')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    await poll(order).toEqual(['Quantum Hardware', 'Algorithms', 'Ungrouped']);
    await group(page, 'Algorithms').locator('h3').dragTo(group(page, 'Quantum Hardware').locator('h3'));
    await poll(order).toEqual(['Algorithms', 'Quantum Hardware', 'Ungrouped']);
    // and with the keyboard-accessible arrows
    await group(page, 'Algorithms').getByRole('button', { name: 'Move down' }).click();
    await poll(order).toEqual(['Quantum Hardware', 'Algorithms', 'Ungrouped']);
    await group(page, 'Quantum Hardware').getByRole('button', { name: 'Move down' }).click();
    await poll(order).toEqual(['Algorithms', 'Quantum Hardware', 'Ungrouped']);
    await page.reload();
    await poll(order).toEqual(['Algorithms', 'Quantum Hardware', 'Ungrouped']);
    await context.close();
  });

  it('moves tags in bulk to another group after a preview', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    expect(await tagNames(page, 'Quantum Hardware')).toEqual(['cryostats', 'photonics', 'qubits']);
    await page.getByLabel('Select cryostats').check();
    await page.getByLabel('Select photonics').check();
    await page.getByTestId('bulk-move-target').selectOption(groupIds['Algorithms']!);
    await page.getByTestId('bulk-bar').getByRole('button', { name: 'Move…' }).click();
    const preview = page.getByTestId('tag-preview');
    await poll(() =>
      preview
        .getByTestId('preview-moved')
        .locator('li')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-tag-name'))),
    ).toEqual(['cryostats', 'photonics']);
    await preview.getByTestId('tag-preview-confirm').click();
    await poll(() => page.getByRole('status').filter({ hasText: 'Moved' }).innerText()).toBe('Moved 2 tags.');
    expect(await tagNames(page, 'Algorithms')).toEqual(['cryostats', 'photonics', 'shor']);
    expect(await tagNames(page, 'Quantum Hardware')).toEqual(['qubits']);
    await context.close();
  });
});
