import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleMetrics } from '../../src/infrastructure/db/schema/index.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import { dbKinds } from '../helpers/db.js';
import { HttpPeer, sendJson } from '../peers/http-peer.js';
import { startBrowserEnv, type BrowserEnv } from './helpers/browser.js';

// The three citation APIs are real HTTP peers on loopback. Semantic Scholar holds its answers until
// the test opens the gate, so the page can be seen while the refresh runs.
let gate: Promise<void> = Promise.resolve();
let openGate: () => void = () => {};
const s2Known = new Map([['DOI:10.1000/first', 42]]);
const s2 = new HttpPeer(async (req, res) => {
  await gate;
  const id = decodeURIComponent(req.path.replace('/graph/v1/paper/', ''));
  if (req.query.get('fields') !== 'citationCount' || !s2Known.has(id)) return sendJson(res, 404, {});
  sendJson(res, 200, { paperId: 'p', citationCount: s2Known.get(id) });
});
const openAlex = new HttpPeer((req, res) =>
  req.path === '/works/doi:10.1000/second'
    ? sendJson(res, 200, { id: 'W2', cited_by_count: null })
    : sendJson(res, 404, {}),
);
const crossref = new HttpPeer((req, res) =>
  req.path === '/works/10.1000/second'
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
  const ids: Record<'first' | 'second' | 'bare', string> = { first: '', second: '', bare: '' };

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

  it('shows the run in progress, then its summary; the values reach the database and the readers', async () => {
    gate = new Promise((resolve) => (openGate = resolve));
    const admin = await env.newContext({ as: 'admin' });
    await admin.page.goto('/admin/jobs');
    const card = admin.page.getByTestId('job-metrics');
    await card.getByRole('button', { name: 'Refresh metrics' }).click();

    // while the sources are answering: the button says so and cannot be pressed again
    await expect.poll(() => s2.requests.length).toBeGreaterThan(0);
    const running = card.getByRole('button', { name: 'Running…' });
    expect(await running.isDisabled()).toBe(true);
    expect(await card.locator('output').count()).toBe(0);

    openGate();
    const summary = card.getByRole('status', { name: 'Result' });
    await expect
      .poll(() => summary.innerText())
      .toBe(
        '3 articles checked: 3 values updated, 0 unchanged, 0 failed. ' +
          'Values by source: crossref: 1, semantic_scholar: 1, no value: 1.',
      );
    expect(await card.getByRole('button', { name: 'Refresh metrics' }).isEnabled()).toBe(true);
    expect(await card.getByRole('alert').count()).toBe(0);
    await env.screenshot(admin.page, 'admin-metric-refresh-desktop');

    // what the database holds: the first non-null source in priority order, and null with its time
    expect(await stored(ids.first)).toMatchObject({ value: 42, source: 'semantic_scholar' });
    expect(await stored(ids.second)).toMatchObject({ value: 7, source: 'crossref' });
    expect(await stored(ids.bare)).toMatchObject({ value: null, source: null });

    // and what a reader sees
    const reader = await env.newContext();
    await reader.page.goto(`/articles/${ids.first}`);
    await expect
      .poll(() => reader.page.locator('[data-metric="citation_count"]').innerText())
      .toMatch(/\b42 citations$/);
    await reader.page.goto('/articles');
    const card2 = reader.page.locator(`article[data-article-id="${ids.second}"]`);
    await expect
      .poll(() => card2.locator('[data-metric="citation_count"]').innerText())
      .toMatch(/\b7 citations$/);
    expect(await reader.page.locator(`article[data-article-id="${ids.bare}"] [data-metric]`).count()).toBe(0);
    await Promise.all([admin.context.close(), reader.context.close()]);
  });

  it('a second run the same day finds every value fresh and asks no source', async () => {
    const before = asked();
    const { page, context } = await env.newContext({ as: 'admin' });
    await page.goto('/admin/jobs');
    const card = page.getByTestId('job-metrics');
    await card.getByRole('button', { name: 'Refresh metrics' }).click();
    await expect
      .poll(() => card.getByRole('status', { name: 'Result' }).innerText())
      .toBe('0 articles checked: 0 values updated, 0 unchanged, 0 failed.');
    expect(asked()).toBe(before);
    expect(await stored(ids.first)).toMatchObject({ value: 42 });
    await context.close();
  });

  // KNOWN SERVER BUG (reported, not fixed here): on PGlite the job lock is a session advisory lock
  // and PGlite has one session, so pg_try_advisory_lock is re-entrant and a second refresh runs
  // alongside the first instead of answering 409. On PostgreSQL it answers 409 and this passes.
  it('another admin starting a refresh while one runs is told it is already running', async () => {
    const db = env.api.container.database.db;
    s2Known.set('DOI:10.1000/third', 5);
    await makeArticle(db, { title: 'Third paper', doi: '10.1000/third' });
    gate = new Promise((resolve) => (openGate = resolve));
    const first = await env.newContext({ as: 'admin' });
    const other = await env.newContext({ as: 'admin' });
    try {
      const asked = s2.requests.length;
      await first.page.goto('/admin/jobs');
      await first.page.getByTestId('job-metrics').getByRole('button', { name: 'Refresh metrics' }).click();
      await expect.poll(() => s2.requests.length).toBeGreaterThan(asked);

      await other.page.goto('/admin/jobs');
      const otherCard = other.page.getByTestId('job-metrics');
      await otherCard.getByRole('button', { name: 'Refresh metrics' }).click();
      await expect
        .poll(() => otherCard.getByRole('alert').allInnerTexts(), { timeout: 5_000 })
        .toEqual(['the metric refresh is already running']);
    } finally {
      openGate();
      // both pages settle before the contexts close (no run left behind for the next test)
      for (const { page } of [first, other])
        await expect
          .poll(() => page.getByTestId('job-metrics').locator('output, [role="alert"]').count())
          .toBe(1);
      await Promise.all([first.context.close(), other.context.close()]);
    }
  });
});
