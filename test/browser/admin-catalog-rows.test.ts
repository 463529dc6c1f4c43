import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { providers, sources, topics } from '../../src/infrastructure/db/schema/index.js';
import { makeSource, makeTopic } from '../helpers/article-factories.js';
import { startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

let env: BrowserEnv;
const db = () => env.api.container.database.db;

beforeAll(async () => {
  env = await startBrowserEnv();
});
afterAll(async () => {
  await env?.close();
});

const rowOf = (section: Locator, name: string) => section.locator('tbody tr', { hasText: name });

describe.sequential('admin catalog rows in Chromium', () => {
  it('switches a topic, a source and a provider off and on, and deletes them; refusals are shown', async () => {
    const topic = await makeTopic(db(), { name: 'Marine Biology', slug: `marine-${Date.now()}` });
    const source = await makeSource(db(), {
      topicId: topic.id,
      name: 'Reef Feed',
      url: 'https://reef.example.test/feed.xml',
    });
    const [provider] = await db()
      .insert(providers)
      .values({ name: 'Spare model', type: 'text', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' })
      .returning();

    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/catalog');
    const sections = {
      topics: page.locator('section[aria-labelledby="topics-title"]'),
      sources: page.locator('section[aria-labelledby="sources-title"]'),
      providers: page.locator('section[aria-labelledby="providers-title"]'),
    };
    await expect
      .poll(() => sections.topics.locator('thead th').allInnerTexts())
      .toEqual(['Name', 'Description', 'Active', 'Actions']);
    await expect
      .poll(() => sections.sources.locator('thead th').allInnerTexts())
      .toEqual(['Name', 'Topic', 'Interval', 'Last fetch', 'Next fetch', 'Enabled', 'Actions']);
    await expect.poll(() => rowOf(sections.sources, 'Reef Feed').innerText()).toContain('Marine Biology');

    // the switches patch the row and show what the server holds
    const sourceSwitch = sections.sources.getByLabel('Enabled: Reef Feed');
    await sourceSwitch.click();
    await expect.poll(() => sourceSwitch.isChecked()).toBe(false);
    await expect
      .poll(async () => (await db().select().from(sources).where(eq(sources.id, source.id)))[0]!.enabled)
      .toBe(false);
    const topicSwitch = sections.topics.getByLabel('Active: Marine Biology');
    await topicSwitch.click();
    await expect
      .poll(async () => (await db().select().from(topics).where(eq(topics.id, topic.id)))[0]!.isActive)
      .toBe(false);
    // inactive topics leave the shared topic list (and the source form's select): on again, once the
    // row shows it off (a click while the list still re-renders from the first one was lost)
    await expect.poll(() => topicSwitch.isChecked()).toBe(false);
    await expect.poll(() => topicSwitch.isEnabled()).toBe(true);
    await topicSwitch.click();
    await expect
      .poll(async () => (await db().select().from(topics).where(eq(topics.id, topic.id)))[0]!.isActive)
      .toBe(true);
    const providerSwitch = sections.providers.getByLabel('Active: Spare model');
    await providerSwitch.click();
    await expect
      .poll(
        async () => (await db().select().from(providers).where(eq(providers.id, provider!.id)))[0]!.isActive,
      )
      .toBe(false);
    await expect.poll(() => providerSwitch.isChecked()).toBe(false);
    await providerSwitch.click();
    await expect.poll(() => providerSwitch.isChecked()).toBe(true);

    // a second source with the same URL in the topic is refused, and the section says why
    await sections.sources
      .getByRole('combobox', { name: 'Topic', exact: true })
      .selectOption({ label: 'Marine Biology' });
    await sections.sources.getByLabel('Name').fill('Reef Feed again');
    await sections.sources.getByLabel('Site or feed address').fill('https://reef.example.test/feed.xml');
    await sections.sources.getByRole('button', { name: 'Add source' }).click();
    await expect
      .poll(() => sections.sources.getByRole('alert').innerText())
      .toBe('This source is already in the catalog.');
    expect(await db().select().from(sources).where(eq(sources.topicId, topic.id))).toHaveLength(1);

    // delete: the rows go, and so do the stored ones
    await rowOf(sections.providers, 'Spare model').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rowOf(sections.providers, 'Spare model').count()).toBe(0);
    expect(await db().select().from(providers).where(eq(providers.id, provider!.id))).toEqual([]);
    await rowOf(sections.sources, 'Reef Feed').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rowOf(sections.sources, 'Reef Feed').count()).toBe(0);
    expect(await sections.sources.getByRole('alert').count()).toBe(0);
    await rowOf(sections.topics, 'Marine Biology').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => rowOf(sections.topics, 'Marine Biology').count()).toBe(0);
    expect(await db().select().from(topics).where(eq(topics.id, topic.id))).toEqual([]);
    await context.close();
  });
});
