import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

let env: BrowserEnv;

beforeAll(async () => {
  env = await startBrowserEnv();
});
afterAll(async () => {
  await env?.close();
});

describe.sequential('admin catalog and jobs in Chromium', () => {
  it('creates a topic and a source; the topic appears in the readers’ topic selector', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/catalog');
    const topics = page.locator('section[aria-labelledby="topics-title"]');
    await topics.getByLabel('Name').fill('Robotics');
    await topics.getByLabel('Description').fill('Robots and control');
    await topics.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => topics.locator('tbody').innerText()).toContain('Robots and control');

    const sources = page.locator('section[aria-labelledby="sources-title"]');
    await sources.getByRole('combobox', { name: 'Topic', exact: true }).selectOption({ label: 'Robotics' });
    await sources.getByLabel('Name').fill('Robot News');
    await sources.getByLabel('Site or feed address').fill('https://robots.example.test/feed.xml');
    // no such host: refused as no feed, then saved anyway (test/browser/admin-sources.test.ts reads real feeds)
    await sources.getByRole('button', { name: 'Add source' }).click();
    await sources.getByLabel(/Save anyway/).check();
    await sources.getByRole('button', { name: 'Add source' }).click();
    await expect.poll(() => sources.locator('tbody').innerText()).toContain('Robot News');

    await page.goto('/articles');
    await expect
      .poll(() => page.getByTestId('topic-select').locator('option').allTextContents())
      .toContain('Robotics');
    await context.close();
  });

  it('creates a multimodal provider; its API key is never shown back', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/catalog');
    const providers = page.locator('section[aria-labelledby="providers-title"]');
    await providers.getByLabel('Name').fill('Local model');
    await providers.getByLabel('Base URL').fill('http://127.0.0.1:11434/v1');
    await providers.getByLabel('Model', { exact: true }).fill('llama3');
    await providers.getByLabel('Type').selectOption('multimodal');
    await providers.getByLabel('API key').fill('sk-secret-value');
    await providers.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => providers.locator('tbody').innerText()).toContain('Local model');
    expect(await providers.locator('tbody').innerText()).toContain('key set');
    const listed = await page.evaluate(async () => (await fetch('/api/proxy/admin/providers')).text());
    expect(listed).toContain('"has_api_key":true');
    expect(listed).not.toContain('sk-secret-value');
    await context.close();
  });

  it('starts a scrape and lists its run with status and counts; the weekly report job answers too', async () => {
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/jobs');
    // the run this click starts, not the source's first fetch (a run of its own, listed too)
    const started = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith('/api/proxy/admin/scraper/runs'),
    );
    await page.getByTestId('job-scrape').getByRole('button', { name: 'Start' }).click();
    const { run_id: runId } = (await (await started).json()) as { run_id: string };
    const scrapeRow = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
    await expect
      .poll(() => scrapeRow.innerText(), { timeout: 30_000 })
      .toMatch(/Scrape sources[\s\S]*(Completed|Failed)/);
    expect(await scrapeRow.innerText()).toContain('sources read');
    // the summary leads with what matters: the new articles, then the failures (the one source
    // has no such host), marked as failures; the other counts after them
    const counts = await scrapeRow.locator('.run-counts > span').allInnerTexts();
    expect(counts[0]).toMatch(/^new articles: 0$/);
    expect(counts[1]).toMatch(/^ · sources failed: 1$/);
    expect(await scrapeRow.locator('.run-counts > span').nth(1).getAttribute('class')).toBe(
      'run-count-failed',
    );
    expect(counts.slice(2).join('')).not.toMatch(/failed/);
    await scrapeRow.getByRole('button', { name: 'Details' }).click();
    const summary = page.locator('dl.run-summary > div');
    await expect.poll(() => summary.count()).toBeGreaterThan(3);
    const detail = await summary.locator('dt').allInnerTexts();
    expect(detail[0]).toBe('new articles');
    // every failure count comes right after it, before any other count
    const firstOther = detail.findIndex((label, i) => i > 0 && !/failed/.test(label));
    expect(firstOther).toBeGreaterThan(1);
    expect(detail.slice(firstOther).filter((label) => /failed/.test(label))).toEqual([]);
    expect(detail).toContain('sources failed');
    expect(await page.locator('dl.run-summary > div.run-count-failed dt').allInnerTexts()).toEqual([
      'sources failed',
    ]);

    const reports = page.getByTestId('job-reports');
    await reports.getByRole('button', { name: 'Start' }).click();
    // with or without a provider the job runs (without one it writes extractive digests): a run is listed
    await expect
      .poll(
        async () =>
          (await reports.getByRole('alert').count()) +
          (await page.locator('[data-testid="run-row"][data-kind="reports"]').count()),
        { timeout: 30_000 },
      )
      .toBe(1);
    await env.screenshot(page, 'admin-jobs-results-desktop');
    await context.close();
  });
});
