import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleMetrics } from '../../src/infrastructure/db/schema/index.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import { dbKinds } from '../helpers/db.js';
import { HttpPeer, sendJson } from '../peers/http-peer.js';
import { VIEWPORTS, startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

// The three citation APIs are real HTTP peers on loopback. Semantic Scholar holds its answers until
// the test opens the gate, so the page can be seen while the refresh runs. Every source fails for
// the DOI 10.1000/broken, so that article shows in the run's errors.
let gate: Promise<void> = Promise.resolve();
let openGate: () => void = () => {};
const s2Known = new Map([['DOI:10.1000/first', 42]]);
const down = (res: Parameters<typeof sendJson>[0]) =>
  void res.writeHead(500, { 'retry-after': '0', 'content-type': 'application/json' }).end('{}');
const s2 = new HttpPeer(async (req, res) => {
  await gate;
  const id = decodeURIComponent(req.path.replace('/graph/v1/paper/', ''));
  if (id === 'DOI:10.1000/broken') return down(res);
  if (req.query.get('fields') !== 'citationCount,externalIds' || !s2Known.has(id))
    return sendJson(res, 404, {});
  sendJson(res, 200, { paperId: 'p', citationCount: s2Known.get(id) });
});
const openAlex = new HttpPeer((req, res) =>
  req.path === '/works/doi:10.1000/broken'
    ? down(res)
    : req.path === '/works/doi:10.1000/second'
      ? sendJson(res, 200, { id: 'W2', cited_by_count: null })
      : sendJson(res, 404, {}),
);
const crossref = new HttpPeer((req, res) =>
  req.path === '/works/10.1000/broken'
    ? down(res)
    : req.path === '/works/10.1000/second'
      ? sendJson(res, 200, { status: 'ok', message: { 'is-referenced-by-count': 7 } })
      : sendJson(res, 404, { status: 'error' }),
);
const peers = [s2, openAlex, crossref];
const asked = () => peers.reduce((n, p) => n + p.requests.length, 0);

beforeAll(async () => {
  await Promise.all(peers.map((p) => p.start()));
});
afterAll(async () => {
  openGate();
  await Promise.all(peers.map((p) => p.stop()));
});

// on PGlite and, when TEST_DATABASE_URL is set (as in CI), on PostgreSQL
describe.sequential.each(dbKinds())('metric refresh from the jobs page in Chromium (%s)', (kind) => {
  let env: BrowserEnv;
  const ids: Record<'first' | 'second' | 'bare' | 'broken', string> = {
    first: '',
    second: '',
    bare: '',
    broken: '',
  };

  beforeAll(async () => {
    env = await startBrowserEnv({
      db: kind,
      env: {
        SEMANTIC_SCHOLAR_API_URL: s2.url,
        OPENALEX_API_URL: openAlex.url,
        CROSSREF_API_URL: crossref.url,
        CITATION_REQUESTS_PER_SECOND: '1000',
      },
    });
    const db = env.api.container.database.db;
    const topic = await makeTopic(db, { name: 'Citations Lab' });
    const paper = async (title: string, extra: { doi?: string; metadata?: Record<string, unknown> }) =>
      (await makeArticle(db, { topicId: topic.id, title, ...extra })).id;
    ids.first = await paper('First paper', { doi: '10.1000/first' });
    ids.second = await paper('Second paper', { doi: '10.1000/second' });
    ids.bare = await paper('A blog post', { metadata: {} });
    ids.broken = await paper('A paper no source can look up', { doi: '10.1000/broken' });
  });
  afterAll(async () => {
    openGate();
    await env?.close();
  });

  const stored = async (articleId: string) =>
    (
      await env.api.container.database.db
        .select()
        .from(articleMetrics)
        .where(and(eq(articleMetrics.articleId, articleId), eq(articleMetrics.metricKey, 'citation_count')))
    )[0];

  it('starts a refresh, shows its progress, keeps it when the page is left, then lists it with its errors', async () => {
    gate = new Promise((resolve) => (openGate = resolve));
    const admin = await env.newContext({ as: 'admin' });
    const page = admin.page;
    await page.goto('/admin/jobs');
    expect(await page.getByTestId('active-runs').innerText()).toContain('No job is running.');
    const card = page.getByTestId('job-metrics');
    await card.getByRole('button', { name: 'Start' }).click();

    // while Semantic Scholar holds its answers: the run is under way with its progress, the
    // button cannot start a second one
    await expect.poll(() => s2.requests.length).toBeGreaterThan(0);
    const active = page.getByTestId('active-run');
    await expect.poll(() => active.count()).toBe(1);
    expect(await active.getAttribute('data-kind')).toBe('metrics');
    await expect.poll(() => active.locator('.run-progress-text').innerText()).toMatch(/^\d of 4$/);
    expect(await card.getByRole('button', { name: 'Running' }).isDisabled()).toBe(true);
    await env.screenshot(page, 'admin-jobs-running-desktop');

    // leave the page and come back: the run is a record on the server, still under way
    await page.goto('/articles');
    await page.goto('/admin/jobs');
    await expect.poll(() => page.getByTestId('active-run').count()).toBe(1);
    // the elapsed time counts up while the run is under way, not only when its record is polled
    const elapsed = page.getByTestId('active-run').getByTestId('elapsed');
    const seen = new Set<string>();
    await expect
      .poll(async () => seen.add(await elapsed.innerText()).size, { timeout: 10_000, interval: 300 })
      .toBeGreaterThanOrEqual(3);

    openGate();
    await expect
      .poll(() => page.getByTestId('active-runs').innerText(), { timeout: 30_000 })
      .toContain('No job is running.');
    const row = page.getByTestId('run-row').first();
    await expect.poll(() => row.innerText()).toContain('Completed with problems');
    expect(await row.getAttribute('data-kind')).toBe('metrics');
    expect(await row.innerText()).toContain('1 failed');
    expect(await row.innerText()).toContain('articles checked: 4');
    expect(await card.getByRole('button', { name: 'Start' }).isEnabled()).toBe(true);

    await row.getByRole('button', { name: 'Details' }).click();
    const detail = page.getByTestId('run-detail');
    await expect.poll(() => detail.getByTestId('run-error').count()).toBe(1);
    const error = detail.getByTestId('run-error');
    // the failed article by its title, with the reason
    expect(await error.innerText()).toMatch(/^Article A paper no source can look up\n/);
    expect(await error.innerText()).toContain(
      'semantic_scholar answered 500; openalex answered 500; crossref answered 500',
    );
    expect(await error.getByRole('link').getAttribute('href')).toBe(`/articles/${ids.broken}`);
    const summary = await detail.locator('.run-summary').innerText();
    // two values changed; the article without identifiers got "no value", which is no change
    expect(summary).toMatch(/values updated\s+2/);
    expect(summary).toMatch(/from crossref\s+1/);
    expect(summary).toMatch(/no source had a value\s+1/);
    expect(await detail.innerText()).toContain('by an admin');
    expect(page.url()).toMatch(/\/admin\/jobs\?run=[0-9a-f-]{36}$/);
    expect(await page.locator('pre, output.job-result').count()).toBe(0);
    await env.screenshot(page, 'admin-jobs-detail-desktop');

    // the same in Traditional Chinese
    await page.getByLabel('Language').selectOption('zh-TW');
    await expect.poll(() => detail.innerText()).toContain('失敗項目');
    expect(await row.innerText()).toContain('已完成，但有問題');
    await env.screenshot(page, 'admin-jobs-detail-zh-TW');

    // what the database holds: the first non-null source in priority order, and null with its time
    expect(await stored(ids.first)).toMatchObject({ value: 42, source: 'semantic_scholar' });
    expect(await stored(ids.second)).toMatchObject({ value: 7, source: 'crossref' });
    expect(await stored(ids.bare)).toMatchObject({ value: null, source: null });
    expect(await stored(ids.broken)).toBeUndefined();

    // and what a reader sees
    const reader = await env.newContext();
    await reader.page.goto(`/articles/${ids.first}`);
    await expect
      .poll(() => reader.page.locator('[data-metric="citation_count"]').innerText())
      .toMatch(/\b42\b[\s\S]*semantic_scholar/);
    await Promise.all([admin.context.close(), reader.context.close()]);
  });

  it('on a phone the history is one card per run and the detail opens from the address', async () => {
    const { page, context } = await env.newContext({ as: 'admin', viewport: VIEWPORTS.phone });
    await page.goto('/admin/jobs');
    const row = page.getByTestId('run-row').first();
    await expect.poll(() => row.innerText()).toContain('Completed with problems');
    // stacked: each cell carries its column name, no sideways scrolling
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await row.getByRole('button', { name: 'Details' }).click();
    await expect.poll(() => page.getByTestId('run-error').count()).toBe(1);
    await env.screenshot(page, 'admin-jobs-run-phone');
    await page.reload();
    await expect.poll(() => page.getByTestId('run-error').count()).toBe(1);
    await context.close();
  });

  it('a second run the same day checks only the failed article and says so', async () => {
    const before = asked();
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/jobs');
    await page.getByTestId('job-metrics').getByRole('button', { name: 'Start' }).click();
    const row = page.getByTestId('run-row').first();
    await expect
      .poll(() => row.innerText(), { timeout: 30_000 })
      .toMatch(/Completed with problems[\s\S]*articles checked: 1/);
    // only the broken article's sources were asked again; the fresh values were left alone
    expect(asked()).toBeGreaterThan(before);
    expect(decodeURIComponent(s2.requests.slice(-1)[0]!.path)).toContain('10.1000/broken');
    expect(await stored(ids.first)).toMatchObject({ value: 42 });
    await context.close();
  });

  it('another admin sees the run under way and cannot start a second one', async () => {
    gate = new Promise((resolve) => (openGate = resolve));
    const first = await env.newContext({ as: 'admin' });
    const other = await env.newContext({ as: 'admin' });
    try {
      const asked = s2.requests.length;
      await first.page.goto('/admin/jobs');
      await first.page.getByTestId('job-metrics').getByRole('button', { name: 'Start' }).click();
      await expect.poll(() => s2.requests.length).toBeGreaterThan(asked);

      await other.page.goto('/admin/jobs');
      await expect.poll(() => other.page.getByTestId('active-run').count()).toBe(1);
      const button = other.page.getByTestId('job-metrics').getByRole('button', { name: 'Running' });
      expect(await button.isDisabled()).toBe(true);
      // the API refuses a second one too (a page that had not seen the run yet)
      const res = await other.page.request.post('/api/proxy/admin/jobs/refresh-metrics', {
        headers: { origin: new URL(other.page.url()).origin },
        data: {},
      });
      expect(res.status()).toBe(409);
    } finally {
      openGate();
      await expect.poll(() => first.page.getByTestId('active-run').count(), { timeout: 30_000 }).toBe(0);
      await Promise.all([first.context.close(), other.context.close()]);
    }
  });
});
