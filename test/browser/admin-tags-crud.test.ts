import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  articleTags,
  tagGroups,
  tagNormalizationSuggestions,
  tags,
} from '../../src/infrastructure/db/schema/index.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import { makeTag, tagNamed } from '../helpers/tag-factories.js';
import { EmbeddingPeer, embedHandler, peerDense } from '../peers/embedding-peer.js';
import { sendJson } from '../peers/http-peer.js';
import { startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

/** the page answers through the api on a shared machine: give it time */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

// Group and tag embeddings come from a real embedding endpoint on loopback. Its vectors depend on
// the text's length only, so names of equal length are 1.0 similar and the others stay under 0.8.
let peer: EmbeddingPeer;
let env: BrowserEnv;
let topicId: string;
let articleId: string;

const db = () => env.api.container.database.db;
const groupRow = async (displayName: string, topic = topicId) =>
  (
    await db()
      .select()
      .from(tagGroups)
      .where(and(eq(tagGroups.topicId, topic), eq(tagGroups.displayName, displayName)))
  )[0];
const groupCount = async (topic: string) =>
  (await db().select().from(tagGroups).where(eq(tagGroups.topicId, topic))).length;
const embedded = () => peer.requests.map((r) => (r.json() as { texts: string[] }).texts).flat();
const rounded = (v: number[] | null | undefined) => v?.map((x) => Math.round(x * 1e5));

beforeAll(async () => {
  peer = await new EmbeddingPeer(8).start();
  env = await startBrowserEnv({ env: { EMBEDDING_URL: peer.url, EMBEDDING_DIMENSION: '8' } });
  const topic = await makeTopic(db(), { name: 'Photonics Lab' });
  topicId = topic.id;
  articleId = (await makeArticle(db(), { topicId, title: 'A photonic chip' })).id;
});
afterAll(async () => {
  await env?.close();
  await peer?.stop();
});

const group = (page: Page, name: string) => page.locator(`section.group[aria-label="${name}"]`);
const groupNames = (page: Page) =>
  page
    .locator('[data-testid="tag-board"] section.group')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
const alertText = (page: Page) => page.locator('.tags-page > [role="alert"]').allTextContents();
/** the app's own modal dialog (web/src/lib/dialog.tsx) that is open now */
const openDialog = (page: Page) => page.locator('dialog[open]');

/** the groups tab of a topic (chosen in the topic select, as an admin does) */
async function openTopic(page: Page, id: string) {
  await page.goto('/admin/tags?tab=groups');
  await page.getByTestId('tags-topic').selectOption(id);
  await poll(() => groupNames(page)).toContain('Ungrouped');
}

/** the tags table of the topic filtered to one group (by display name, or Ungrouped) */
async function openTable(page: Page, topic: string, groupName: string) {
  const row = groupName === 'Ungrouped' ? null : await groupRow(groupName, topic);
  await page.goto(`/admin/tags?topic=${topic}&group=${row ? row.id : 'ungrouped'}`);
  await page.getByTestId('tag-group-filter').waitFor();
  await poll(() =>
    page.locator('[data-testid="tag-table"]:not([aria-busy="true"]), .tag-table-view .state-empty').count(),
  ).toBe(1);
}
const rows = (page: Page) =>
  page
    .locator('[data-testid="tag-table"] tbody tr')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-tag-name')));
async function tagNames(page: Page, groupName: string, topic = topicId) {
  await openTable(page, topic, groupName);
  return rows(page);
}

async function createGroup(page: Page, displayName: string, description = '') {
  const form = page.getByRole('form', { name: 'New group' });
  await form.getByLabel('Display name').fill(displayName);
  await form.getByLabel('Description').fill(description);
  await form.getByRole('button', { name: 'New group' }).click();
}

describe.sequential('admin tag and group editing in Chromium', () => {
  it('keeps the next name an admin types while the lists are still being read again', async () => {
    const topic = await makeTopic(db(), { name: 'Typing Lab' });
    const { page, context } = await env.newContext({ as: 'admin' });
    await openTopic(page, topic.id);
    // after a write the page reads the groups and the pending suggestions again; the suggestions'
    // answer is held, so the new group is listed while the write has not finished
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = true;
    await page.route('**/api/proxy/admin/tags/suggestions*', async (route) => {
      if (!holding) return route.continue();
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    const form = page.getByRole('form', { name: 'New group' });
    const nameField = form.getByLabel('Display name');
    const button = form.getByRole('button', { name: 'New group' });
    await createGroup(page, 'Optics');
    await poll(() => groupNames(page)).toContain('Optics');
    expect(await button.isDisabled()).toBe(true);
    await nameField.fill('Lasers');
    release();
    await poll(() => button.isEnabled()).toBe(true);
    expect(await nameField.inputValue()).toBe('Lasers');

    holding = false;
    await button.click();
    await poll(() => groupNames(page)).toContain('Lasers');
    await poll(() => nameField.inputValue()).toBe('');
    expect((await db().select().from(tagGroups).where(eq(tagGroups.topicId, topic.id))).length).toBe(2);
    await context.close();
  });

  it('creates a group (embedding from the endpoint), shows refusals to the admin, renames it', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await openTopic(page, topicId);

    await createGroup(page, 'quantum hardware', 'Chips and cryostats');
    await poll(() => groupNames(page)).toEqual(['Quantum Hardware', 'Ungrouped']);
    expect(await group(page, 'Quantum Hardware').innerText()).toContain('Chips and cryostats');
    const created = await groupRow('Quantum Hardware');
    expect(created).toMatchObject({ name: 'quantum-hardware', description: 'Chips and cryostats' });
    expect(rounded(created!.embedding)).toEqual(rounded(peerDense('Quantum Hardware', 8)));
    expect(embedded()).toContain('Quantum Hardware');

    // the same name again: the 409 is shown, nothing stored
    await createGroup(page, 'Quantum Hardware');
    await poll(() => alertText(page)).toEqual([expect.stringMatching(/already exists in (this|the) topic/)]);
    expect(await groupCount(topicId)).toBe(1);

    // the embedding endpoint failing: the 502 is shown, nothing stored
    peer.setHandler((_req, res) => sendJson(res, 500, { detail: 'embedder down' }));
    await createGroup(page, 'Algorithms');
    await poll(() => alertText(page)).toEqual([expect.stringMatching(/embedding endpoint/)]);
    expect(await groupCount(topicId)).toBe(1);
    expect(await groupNames(page)).toEqual(['Quantum Hardware', 'Ungrouped']);

    // the endpoint back: the next create succeeds and the stale error goes away
    peer.setHandler(embedHandler(8));
    await createGroup(page, 'Algorithms');
    await poll(() => groupNames(page)).toEqual(['Quantum Hardware', 'Algorithms', 'Ungrouped']);
    expect(await alertText(page)).toEqual([]);

    // rename in a dialog: Escape leaves it as it was; Save renames, title, slug and embedding follow
    const renameButton = group(page, 'Quantum Hardware').getByRole('button', { name: 'Rename', exact: true });
    await renameButton.click();
    const dialog = openDialog(page);
    expect(await dialog.getByRole('heading').innerText()).toBe('Rename: Quantum Hardware');
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Quantum Hardware');
    // the name field has the focus, and Tab stays inside the dialog
    await expect
      .poll(() => dialog.getByLabel('Name').evaluate((e) => e === document.activeElement))
      .toBe(true);
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('dialog[open]'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await poll(() => dialog.count()).toBe(0);
    expect(await renameButton.evaluate((b) => b === document.activeElement)).toBe(true);
    await renameButton.click();
    await dialog.getByLabel('Name').fill('quantum devices');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await poll(() => groupNames(page)).toEqual(['Quantum Devices', 'Algorithms', 'Ungrouped']);
    // the list may show the new name a render before the dialog closes (both follow the answer)
    await poll(() => dialog.count()).toBe(0);
    const renamed = await groupRow('Quantum Devices');
    expect(renamed).toMatchObject({ id: created!.id, name: 'quantum-devices' });
    expect(rounded(renamed!.embedding)).toEqual(rounded(peerDense('Quantum Devices', 8)));

    // a reload shows what the server holds
    await openTopic(page, topicId);
    expect(await groupNames(page)).toEqual(['Quantum Devices', 'Algorithms', 'Ungrouped']);
    await context.close();
  });

  it('a tag created by the tagger is moved to a group, renamed, and deleted only once confirmed', async () => {
    const devices = (await groupRow('Quantum Devices'))!;
    const algorithms = (await groupRow('Algorithms'))!;
    // tags come into being when articles are tagged (there is no create-tag endpoint)
    const tagged = await env.api.container.tagger.tagArticle({
      topicId,
      articleId,
      names: ['Photonic Chips'],
    });
    expect(tagged.createdTags).toEqual(['photonic chips']);
    await makeTag(db(), topicId, 'lasers', devices.id);
    const otherLasers = await makeTag(db(), topicId, 'lasers', algorithms.id);

    const { page, context } = await env.newContext({ as: 'admin' });
    expect(await tagNames(page, 'Ungrouped')).toEqual(['photonic chips']);
    expect(await page.locator('tr[data-tag-name="photonic chips"] td.num').innerText()).toBe('1 article');

    // move one tag: Enter on its row opens the editor, where its group is chosen
    await page.locator('tr[data-tag-name="photonic chips"]').focus();
    await page.keyboard.press('Enter');
    const editor = page.getByTestId('tag-edit');
    await editor.getByLabel('Group').selectOption({ label: 'Quantum Devices' });
    await editor.getByRole('button', { name: 'Save' }).click();
    await poll(() => editor.isVisible()).toBe(false);
    await poll(() => rows(page)).toEqual([]);
    expect(await tagNames(page, 'Quantum Devices')).toEqual(['lasers', 'photonic chips']);
    const chips = (await tagNamed(db(), topicId, 'photonic chips'))!;
    expect(chips.tagGroupId).toBe(devices.id);

    // a move into a group that already has that name is refused, and the admin is told why
    await openTable(page, topicId, 'Algorithms');
    await page.getByRole('button', { name: 'Edit lasers' }).click();
    await editor.getByLabel('Group').selectOption({ label: 'Quantum Devices' });
    await editor.getByRole('button', { name: 'Save' }).click();
    await poll(() => editor.getByRole('alert').allTextContents()).toEqual([
      expect.stringMatching(/already exists in the group|tag of that name exists in that group/),
    ]);
    await editor.getByRole('button', { name: 'Cancel' }).click();
    const [stayed] = await db().select().from(tags).where(eq(tags.id, otherLasers.id));
    expect(stayed!.tagGroupId).toBe(algorithms.id);
    expect(await rows(page)).toEqual(['lasers']);

    // rename: the list, the stored name and its embedding follow; the article link stays
    await openTable(page, topicId, 'Quantum Devices');
    await page.getByRole('button', { name: 'Edit photonic chips' }).click();
    await editor.getByLabel('Name').fill('Integrated Photonics');
    await editor.getByRole('button', { name: 'Save' }).click();
    await poll(() => rows(page)).toEqual(['integrated photonics', 'lasers']);
    expect(await alertText(page)).toEqual([]);
    const [renamed] = await db().select().from(tags).where(eq(tags.id, chips.id));
    expect(renamed!.name).toBe('integrated photonics');
    expect(rounded(renamed!.embedding)).toEqual(rounded(peerDense('integrated photonics', 8)));
    const links = () => db().select().from(articleTags).where(eq(articleTags.tagId, chips.id));
    expect(await links()).toHaveLength(1);

    // delete: dismissing the confirmation keeps the tag; accepting removes it and its links
    const tagRow = page.locator('tr[data-tag-name="integrated photonics"]');
    await tagRow.getByRole('button', { name: 'Delete integrated photonics' }).click();
    const confirm = page.getByTestId('tag-delete-confirm');
    expect(await confirm.locator('.dialog-body').innerText()).toBe(
      'Delete the tag “integrated photonics”? It is removed from its 1 article.',
    );
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await poll(() => confirm.count()).toBe(0);
    expect(await tagRow.count()).toBe(1);
    expect(await tagNamed(db(), topicId, 'integrated photonics')).not.toBeNull();

    await tagRow.getByRole('button', { name: 'Delete integrated photonics' }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await poll(() => rows(page)).toEqual(['lasers']);
    expect(await tagNamed(db(), topicId, 'integrated photonics')).toBeNull();
    expect(await links()).toHaveLength(0);
    await env.screenshot(page, 'admin-tags-editing-desktop');
    await context.close();
  });

  it('deletes a group only once confirmed; its tags become ungrouped', async () => {
    const devices = (await groupRow('Quantum Devices'))!;
    const { page, context } = await env.newContext({ as: 'admin' });
    expect(await tagNames(page, 'Quantum Devices')).toEqual(['lasers']);
    await openTopic(page, topicId);

    await group(page, 'Quantum Devices').getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByTestId('group-delete-confirm');
    expect(await confirm.locator('.dialog-body').innerText()).toBe(
      'Delete this group? Its tags become ungrouped.',
    );
    await page.keyboard.press('Escape');
    await poll(() => confirm.count()).toBe(0);
    expect(await groupNames(page)).toEqual(['Quantum Devices', 'Algorithms', 'Ungrouped']);
    expect(await groupRow('Quantum Devices')).toBeDefined();

    await group(page, 'Quantum Devices').getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await poll(() => groupNames(page)).toEqual(['Algorithms', 'Ungrouped']);
    expect(await tagNames(page, 'Ungrouped')).toEqual(['lasers']);
    expect(await db().select().from(tagGroups).where(eq(tagGroups.id, devices.id))).toEqual([]);
    const lasers = await db()
      .select()
      .from(tags)
      .where(and(eq(tags.topicId, topicId), eq(tags.name, 'lasers')));
    expect(lasers.map((t) => t.tagGroupId).sort()).toEqual([(await groupRow('Algorithms'))!.id, null]);
    await context.close();
  });
});

describe.sequential('similar groups and tag suggestions from embeddings in Chromium', () => {
  it('shows groups with similar embeddings on demand, and a rejected suggestion keeps both tags', async () => {
    const topic = await makeTopic(db(), { name: 'Similarity Lab' });
    const { page, context } = await env.newContext({ as: 'admin' });
    await openTopic(page, topic.id);
    // "Quantum Hardware" and "Quantum Machines" embed alike (same length); "Algorithms" does not
    for (const name of ['Quantum Hardware', 'Quantum Machines', 'Algorithms']) {
      await createGroup(page, name);
      await poll(() => groupNames(page)).toContain(name);
    }
    const similarLine = (name: string) => group(page, name).getByTestId('similar');
    expect(await page.getByTestId('similar').count()).toBe(0);

    await page.getByLabel('Show similar groups').check();
    await poll(() => similarLine('Quantum Hardware').innerText()).toBe('Similar: Quantum Machines');
    expect(await similarLine('Quantum Machines').innerText()).toBe('Similar: Quantum Hardware');
    expect(await similarLine('Algorithms').count()).toBe(0);
    await env.screenshot(page, 'admin-tags-similar-desktop');
    await page.getByLabel('Show similar groups').uncheck();
    await poll(() => page.getByTestId('similar').count()).toBe(0);

    // the tagger meets a near-duplicate of an existing tag: a pending suggestion for the admin
    const tagger = env.api.container.tagger;
    const first = await makeArticle(db(), { topicId: topic.id });
    const second = await makeArticle(db(), { topicId: topic.id });
    await tagger.tagArticle({ topicId: topic.id, articleId: first.id, names: ['error-correction'] });
    const r = await tagger.tagArticle({
      topicId: topic.id,
      articleId: second.id,
      names: ['error-correcting'],
    });
    expect(r.suggestions).toBe(1);
    const [pending] = await db()
      .select()
      .from(tagNormalizationSuggestions)
      .where(eq(tagNormalizationSuggestions.topicId, topic.id));

    await page.goto(`/admin/tags?topic=${topic.id}&tab=suggestions`);
    const suggestion = page.locator(`[data-suggestion-id="${pending!.id}"]`);
    await poll(() => suggestion.innerText()).toMatch(
      /error-correcting \(Ungrouped, 1 article\)\s*→\s*error-correction \(Ungrouped, 1 article\)/,
    );
    expect(await suggestion.getByTestId('similarity').innerText()).toBe('Similarity 100%');
    // the article that raised it, linking to its reader view
    const cause = suggestion.getByRole('link', { name: second.title });
    expect(await cause.getAttribute('href')).toBe(`/articles/${second.id}`);
    await env.screenshot(page, 'admin-tags-suggestions-desktop');
    await suggestion.getByRole('button', { name: 'Reject' }).click();
    await poll(() => suggestion.count()).toBe(0);
    await poll(() => page.getByTestId('suggestions').innerText()).toContain('No pending suggestions.');
    expect(await tagNames(page, 'Ungrouped', topic.id)).toEqual(['error-correcting', 'error-correction']);
    const [row] = await db()
      .select()
      .from(tagNormalizationSuggestions)
      .where(eq(tagNormalizationSuggestions.id, pending!.id));
    expect(row!.status).toBe('rejected');
    expect(await tagNamed(db(), topic.id, 'error-correcting')).not.toBeNull();
    expect(await tagNamed(db(), topic.id, 'error-correction')).not.toBeNull();
    await context.close();
  });
});
