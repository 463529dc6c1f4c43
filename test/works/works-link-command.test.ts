import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic, type ArticleRow } from '../helpers/article-factories.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { commands } from '../../src/jobs/commands/index.js';

const STORY = Array.from(
  { length: 60 },
  (_, i) => `Sentence ${i} of the harbour report names pier ${i % 5} and the ferry Example${i}.`,
).join(' ');
const DAY = 24 * 60 * 60 * 1000;

/**
 * `works:link --since`: the backlog the per-minute tick never reaches (it looks one day back),
 * linked batch by batch through the real command, and nothing the second time.
 */
describe.each(dbKinds())('cli works:link (%s)', (db) => {
  let t: TestApp;
  let preprint: ArticleRow;
  let published: ArticleRow;
  let news: ArticleRow;
  let copyA: ArticleRow;
  let copyB: ArticleRow;
  let old: ArticleRow;
  const command = commands['works:link']!;

  /** runs the command in this process; answers its exit code and what it printed */
  const run = async (values: Record<string, string | boolean | undefined>) => {
    const out: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
    const err = vi.spyOn(console, 'error').mockImplementation((line: string) => void out.push(line));
    try {
      return { code: await command.run(t.container, values), out: out.join('\n') };
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
  };
  const workOf = async (id: string) =>
    rowsOf<{ w: string }>(
      await t.container.database.db.execute(
        sql`select coalesce(work_id, id) as w from articles where id = ${id}`,
      ),
    )[0]!.w;
  const fingerprinted = async () =>
    rowsOf<{ id: string }>(
      await t.container.database.db.execute(sql`select article_id as id from work_fingerprints`),
    ).map((r) => r.id);

  beforeAll(async () => {
    t = await buildTestApp({ db });
    const d = t.container.database.db;
    const topicId = (await makeTopic(d)).id;
    const now = t.container.clock.now().getTime();
    const ago = (days: number) => new Date(now - days * DAY);
    const final = { topicId, processingStatus: 'completed' as const };
    preprint = await makeArticle(d, {
      ...final,
      title: 'Tidal turbines at scale (preprint)',
      arxivId: '2405.00505',
      publishedAt: ago(40),
      scrapedAt: ago(40),
    });
    published = await makeArticle(d, {
      ...final,
      title: 'Tidal turbines at scale',
      doi: '10.1000/energy.2026.505',
      publishedAt: ago(38),
      scrapedAt: ago(38),
    });
    news = await makeArticle(d, {
      ...final,
      title: 'Turbines under the sea',
      content: 'The study (doi:10.1000/energy.2026.505) puts turbines in a tidal channel.',
      publishedAt: ago(37),
      scrapedAt: ago(37),
    });
    copyA = await makeArticle(d, { ...final, content: STORY, publishedAt: ago(30), scrapedAt: ago(30) });
    copyB = await makeArticle(d, {
      ...final,
      title: 'The harbour story as another outlet ran it',
      content: STORY,
      publishedAt: ago(30),
      scrapedAt: ago(30),
    });
    old = await makeArticle(d, {
      ...final,
      title: 'Before the backlog',
      publishedAt: ago(90),
      scrapedAt: ago(90),
    });
    // the Crossref answer of the journal DOI, stored by a citation refresh long ago
    await t.container.services.workLinker.recordLinks([
      { from: 'doi:10.1000/energy.2026.505', to: 'arxiv:2405.00505', evidence: 'crossref:has-preprint' },
    ]);
  });
  afterAll(() => t.close());

  it('refuses a missing or bad --since and a bad --batch (exit 2), before linking anything', async () => {
    expect(await run({})).toMatchObject({ code: 2, out: expect.stringContaining('--since') });
    expect((await run({ since: 'last week' })).code).toBe(2);
    expect((await run({ since: '2026-13-45' })).code).toBe(2);
    expect((await run({ since: '2026-01-01', batch: '0' })).code).toBe(2);
    expect((await run({ since: '2026-01-01', batch: '2.5' })).code).toBe(2);
    expect(await fingerprinted()).toEqual([]);
  });

  it('links the backlog since the date in bounded batches, and nothing the second time', async () => {
    // the tick looks one day back: it never sees these
    expect(await t.container.services.workLinker.unlinked(100)).toEqual([]);
    const since = new Date(t.container.clock.now().getTime() - 60 * DAY).toISOString().slice(0, 10);

    const first = await run({ since, batch: '2', json: true });
    expect(first.code, first.out).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({ articles: 5, batches: 3, coverage: 1 });

    expect(await workOf(published.id)).toBe(await workOf(preprint.id));
    expect(await workOf(published.id)).not.toBe(published.id);
    expect(await workOf(copyA.id)).toBe(await workOf(copyB.id));
    expect(await workOf(copyA.id)).not.toBe(await workOf(published.id));
    expect(await workOf(news.id)).toBe(news.id);
    const res = await t.app.inject({ url: `/works/${published.id}` });
    expect(res.json()).toMatchObject({ coverage_count: 1 });
    // stored before --since: left alone
    expect((await fingerprinted()).sort()).toEqual(
      [preprint.id, published.id, news.id, copyA.id, copyB.id].sort(),
    );
    expect(await workOf(old.id)).toBe(old.id);

    const again = await run({ since, json: true });
    expect(again.code, again.out).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ articles: 0, batches: 0, merged: 0, coverage: 0 });
    const plain = await run({ since });
    expect(plain.out).toMatch(/^linked 0 articles stored since .* in 0 batches/);
    expect(await workOf(published.id)).toBe(await workOf(preprint.id));
  });
});
