import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startBrowserEnv, type BrowserEnv } from './helpers/browser.js';
import { seedReaderData, type ReaderData } from './helpers/seed.js';

let env: BrowserEnv;
let data: ReaderData;

beforeAll(async () => {
  env = await startBrowserEnv();
  data = await seedReaderData(env.api.container.database.db);
});
afterAll(async () => {
  await env?.close();
});

const sortKeys = async (page: Page) => {
  await page.getByTestId('sort-menu').click();
  const keys = await page
    .getByRole('menuitemradio')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-sort-key')));
  await page.keyboard.press('Escape');
  return keys;
};
const citationCells = (page: Page) =>
  page.locator('[data-testid="article-list"] [data-metric="citation_count"]').count();

describe.sequential('admin metric catalog in Chromium', () => {
  it('disabling a metric removes it from the sort menu and the cards; enabling brings it back', async () => {
    const admin = await env.newContext({ as: 'admin' });
    const reader = await env.newContext();
    await reader.page.goto(`/articles?topic=${data.topic.id}`);
    await expect.poll(() => citationCells(reader.page)).toBe(3);
    expect(await sortKeys(reader.page)).toContain('citation_count');

    await admin.page.goto('/admin/metrics');
    const row = admin.page.locator('tr[data-metric-key="citation_count"]');
    await row.getByTestId('metric-enabled').click();
    await expect.poll(() => row.getByTestId('metric-enabled').isChecked()).toBe(false);

    await reader.page.reload();
    await expect.poll(() => reader.page.locator('[data-testid="article-list"] article').count()).toBe(4);
    expect(await citationCells(reader.page)).toBe(0);
    expect(await sortKeys(reader.page)).not.toContain('citation_count');
    // a link made while it was enabled falls back to the default sort instead of failing
    await reader.page.goto(`/articles?topic=${data.topic.id}&sort=citation_count`);
    await expect.poll(() => reader.page.locator('[data-testid="article-list"] article').count()).toBe(4);

    await row.getByTestId('metric-enabled').click();
    await expect.poll(() => row.getByTestId('metric-enabled').isChecked()).toBe(true);
    await reader.page.goto(`/articles?topic=${data.topic.id}`);
    await expect.poll(() => citationCells(reader.page)).toBe(3);
    expect(await sortKeys(reader.page)).toContain('citation_count');
    await admin.context.close();
    await reader.context.close();
  });

  it('offers only whitelisted icons; a chosen icon shows on the cards; anything else is refused', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    const whitelist = (
      await env.api.app.inject({
        method: 'GET',
        url: '/admin/metric-definitions/icons',
        headers: (await env.api.login('admin')).headers,
      })
    ).json().icons as string[];
    expect(whitelist).toHaveLength(20);

    await page.goto('/admin/metrics');
    const row = page.locator('tr[data-metric-key="citation_count"]');
    const offered = () =>
      row
        .getByTestId('icon-picker')
        .getByRole('radio')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-icon-name')).sort());
    await expect.poll(offered).toEqual([...whitelist].sort());
    // every offered icon renders as itself, not as the fallback
    const rendered = await row
      .getByTestId('icon-picker')
      .locator('svg')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-icon')));
    expect(rendered.sort()).toEqual([...whitelist].sort());

    await row.locator('[data-icon-name="flame"]').click();
    await expect
      .poll(() => row.locator('[data-icon-name="flame"]').getAttribute('aria-checked'))
      .toBe('true');
    await page.goto(`/articles?topic=${data.topic.id}`);
    await expect
      .poll(() =>
        page
          .locator(`article[data-article-id="${data.high.id}"] [data-metric="citation_count"] svg`)
          .getAttribute('data-icon'),
      )
      .toBe('flame');

    // a forged request from the page (same session, same proxy) cannot set an icon outside the list
    const id = await page.evaluate(async () => {
      const defs = (await (await fetch('/api/proxy/admin/metric-definitions')).json()) as {
        id: string;
        metric_key: string;
      }[];
      return defs.find((d) => d.metric_key === 'citation_count')!.id;
    });
    const status = await page.evaluate(
      async (metricId) =>
        (
          await fetch(`/api/proxy/admin/metric-definitions/${metricId}`, {
            method: 'PATCH',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ icon_name: 'skull' }),
          })
        ).status,
      id,
    );
    expect(status).toBe(422);
    await page.goto('/admin/metrics');
    await expect
      .poll(() =>
        page
          .locator('tr[data-metric-key="citation_count"] [data-icon-name="flame"]')
          .getAttribute('aria-checked'),
      )
      .toBe('true');
    await context.close();
  });
});
