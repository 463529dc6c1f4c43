import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { createTestDatabase, dbKinds } from '../helpers/db.js';
import { makeArticle, makeSource, makeTopic, setMetric } from '../helpers/article-factories.js';
import { rowsOf, type Database } from '../../src/infrastructure/db/client.js';
import {
  DrizzleArticleStore,
  DrizzleRunStore,
} from '../../src/infrastructure/db/repositories/pipeline.repository.js';
import { articles, scraperRuns, scraperSkips } from '../../src/infrastructure/db/schema/index.js';
import type { NewArticle } from '../../src/application/pipeline/pipeline.ports.js';

/**
 * The store under values it cannot keep (a NUL character, an index entry too large), the topic
 * links and the enrichment of kept articles, on PGlite and PostgreSQL alike.
 */
let n = 0;
function newArticle(topicId: string, sourceId: string, overrides: Partial<NewArticle> = {}): NewArticle {
  n++;
  const url = `https://robust.example.org/a/${n}-${randomBytes(4).toString('hex')}`;
  return {
    topicId,
    sourceId,
    source: 'Robust feed',
    url,
    canonicalUrl: url,
    title: `Robust article ${n}`,
    normalizedTitle: `robust article ${n}`,
    author: null,
    content: 'Some text.',
    publishedAt: null,
    doi: null,
    arxivId: null,
    metadata: {},
    runId: '00000000-0000-4000-8000-000000000002',
    ...overrides,
  };
}

describe.each(dbKinds())('the pipeline store under bad values (%s)', (kind) => {
  let database: Database;
  let store: DrizzleArticleStore;
  let runs: DrizzleRunStore;
  let topicId: string;
  let sourceId: string;
  const exec = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await database.db.execute(q));

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = new DrizzleArticleStore(database.db);
    runs = new DrizzleRunStore(database.db);
    topicId = (await makeTopic(database.db)).id;
    sourceId = (await makeSource(database.db, { topicId })).id;
  });
  afterAll(() => database.close());

  it('refuses only the rows the database cannot store; every other row of the statement is inserted (a NUL is cleaned, not refused)', async () => {
    // incompressible and far above the ~2.7 kB a btree entry may take
    const huge = `https://robust.example.org/${randomBytes(6000).toString('hex')}`;
    const rows = Array.from({ length: 40 }, (_, i) =>
      newArticle(
        topicId,
        sourceId,
        i === 7
          ? { title: 'A title with a \u0000 in it' }
          : i === 23
            ? { url: huge, canonicalUrl: huge }
            : i === 31
              ? { metadata: { feed_summary: 'json \u0000 too' } }
              : {},
      ),
    );
    const { inserted, refused } = await store.insertMany(rows);
    // a NUL in text or in jsonb is dropped at the storage boundary (storable-params.ts): stored
    expect(refused.map((r) => r.url)).toEqual([rows[23]!.url]);
    for (const r of refused) {
      expect(r.reason.length).toBeGreaterThan(0);
      expect(r.reason).not.toContain('\u0000');
      // the database's own message, not the statement with every parameter in it
      expect(r.reason.length).toBeLessThanOrEqual(500);
    }
    const expected = rows.filter((_, i) => i !== 23).map((r) => r.canonicalUrl);
    expect(inserted.map((r) => r.canonicalUrl)).toEqual(expected);
    const stored = await database.db
      .select({ url: articles.canonicalUrl })
      .from(articles)
      .where(inArray(articles.canonicalUrl, expected));
    expect(stored).toHaveLength(39);
    const [nul] = await database.db
      .select({ title: articles.title })
      .from(articles)
      .where(eq(articles.canonicalUrl, rows[7]!.canonicalUrl));
    expect(nul!.title).toBe('A title with a  in it');
  });

  it('records refused items with a storable reason, also when the URL itself holds a NUL', async () => {
    const run = await runs.create({ trigger: 'test', correlationId: 'c1' });
    await runs.recordSkips(run.id, [
      {
        url: 'https://x.example/\u0000bad',
        reason: 'refused',
        duplicateOf: null,
        detail: 'invalid \u0000 byte',
      },
      { url: 'https://x.example/dup', reason: 'url', duplicateOf: 'https://x.example/kept' },
    ]);
    const skips = await database.db.select().from(scraperSkips).where(eq(scraperSkips.runId, run.id));
    expect(skips.map((s) => [s.url, s.reason, s.duplicateOf, s.detail]).sort()).toEqual([
      ['https://x.example/bad', 'refused', null, 'invalid  byte'],
      ['https://x.example/dup', 'url', 'https://x.example/kept', null],
    ]);
  });

  it('records every skip of a run written in several statements (PGlite writes 100 a statement)', async () => {
    const run = await runs.create({ trigger: 'test', correlationId: 'c3' });
    const skips = Array.from({ length: 7 }, (_, i) => ({
      url: `https://x.example/copy-${i}`,
      reason: 'title' as const,
      duplicateOf: `https://x.example/kept-${i}`,
    }));
    await new DrizzleRunStore(database.db, [], { skipChunk: 3 }).recordSkips(run.id, skips);
    const rows = await database.db.select().from(scraperSkips).where(eq(scraperSkips.runId, run.id));
    expect(rows.map((s) => [s.url, s.reason, s.duplicateOf, s.detail]).sort()).toEqual(
      skips.map((s) => [s.url, 'title', s.duplicateOf, null]).sort(),
    );
  });

  it('finishes a run whose error text holds NUL and control characters, cleaned', async () => {
    const run = await runs.create({ trigger: 'test', correlationId: 'c2' });
    await runs.finish(run.id, {
      status: 'failed',
      counts: { published: 3 },
      error: 'insert failed: value "a\u0000b\u0007c"\n\tat line 1',
    });
    const [row] = await database.db.select().from(scraperRuns).where(eq(scraperRuns.id, run.id));
    expect(row).toMatchObject({
      status: 'failed',
      counts: { published: 3 },
      error: 'insert failed: value "abc"\n\tat line 1',
    });
    expect(row!.finishedAt).not.toBeNull();
  });

  it('still ends the run when its error cannot be written: a minimal error and the counts', async () => {
    const run = await runs.create({ trigger: 'test', correlationId: 'c3' });
    // a database that refuses long error texts (a stand-in for any refusal of the first write)
    await database.db.execute(
      sql`alter table scraper_runs add constraint short_error check (error is null or length(error) < 60)`,
    );
    try {
      await runs.finish(run.id, { status: 'failed', counts: { refused: 2 }, error: 'x'.repeat(500) });
    } finally {
      await database.db.execute(sql`alter table scraper_runs drop constraint short_error`);
    }
    const [row] = await database.db.select().from(scraperRuns).where(eq(scraperRuns.id, run.id));
    expect(row).toMatchObject({
      status: 'failed',
      counts: { refused: 2 },
      error: 'failed; the error text could not be stored',
    });
  });

  it('links an article to more topics, once each, skipping sources and topics deleted meanwhile', async () => {
    const [kept] = (await store.insertMany([newArticle(topicId, sourceId)])).inserted;
    const other = await makeTopic(database.db);
    const otherSource = await makeSource(database.db, { topicId: other.id });
    const gone = await makeTopic(database.db);
    await database.db.execute(sql`delete from topics where id = ${gone.id}`);
    const link = { canonicalUrl: kept!.canonicalUrl };
    const added = await store.linkTopics([
      { ...link, topicId: other.id, sourceId: otherSource.id },
      { ...link, topicId: gone.id, sourceId: null },
      { ...link, topicId, sourceId: otherSource.id },
      { canonicalUrl: 'https://nowhere.example/x', topicId: other.id, sourceId: null },
    ]);
    expect(added).toBe(1);
    expect(await store.linkTopics([{ ...link, topicId: other.id, sourceId: null }])).toBe(0);
    const links = await exec<{ topic_id: string; source_id: string | null }>(
      sql`select topic_id, source_id from article_topics where article_id = ${kept!.id} order by first_seen_at, topic_id`,
    );
    // the primary link (written with the insert) keeps its source; the second topic's first source stays
    expect(links).toHaveLength(2);
    expect(links).toEqual(
      expect.arrayContaining([
        { topic_id: topicId, source_id: sourceId },
        { topic_id: other.id, source_id: otherSource.id },
      ]),
    );
  });

  it('fills only what a kept article lacks, and makes its metrics due when it gains an identifier', async () => {
    const bare = await makeArticle(database.db, { topicId });
    const dated = await makeArticle(database.db, {
      topicId,
      doi: '10.1/has',
      publishedAt: new Date('2026-01-02T00:00:00Z'),
    });
    const recent = new Date();
    await setMetric(database.db, bare.id, 'citation_count', null);
    await setMetric(database.db, dated.id, 'citation_count', 7);
    const poisoned = await makeArticle(database.db, { topicId });
    expect(
      await store.enrich([
        {
          canonicalUrl: poisoned.canonicalUrl,
          doi: '10.1/\u0000x',
          arxivId: null,
          publishedAt: new Date('2026-05-06T00:00:00Z'),
        },
      ]),
    ).toBe(1);
    const [p] = await database.db.select().from(articles).where(eq(articles.id, poisoned.id));
    expect(p).toMatchObject({ doi: null, publishedAt: new Date('2026-05-06T00:00:00Z') });
    const changed = await store.enrich([
      {
        canonicalUrl: bare.canonicalUrl,
        doi: '10.1/new',
        arxivId: '2401.00001',
        publishedAt: new Date('2026-03-04T05:06:07Z'),
      },
      {
        canonicalUrl: dated.canonicalUrl,
        doi: '10.1/other',
        arxivId: null,
        publishedAt: new Date('2027-01-01T00:00:00Z'),
      },
    ]);
    expect(changed).toBe(1);
    const rows = new Map(
      (
        await database.db
          .select()
          .from(articles)
          .where(inArray(articles.id, [bare.id, dated.id]))
      ).map((r) => [r.id, r]),
    );
    expect(rows.get(bare.id)).toMatchObject({ doi: '10.1/new', arxivId: '2401.00001' });
    expect(rows.get(bare.id)!.metadata).toMatchObject({ doi: '10.1/new', arxiv_id: '2401.00001' });
    expect(rows.get(bare.id)!.publishedAt?.toISOString()).toBe('2026-03-04T05:06:07.000Z');
    expect(rows.get(dated.id)).toMatchObject({ doi: '10.1/has' });
    expect(rows.get(dated.id)!.publishedAt?.toISOString()).toBe('2026-01-02T00:00:00.000Z');
    const metrics = await exec<{ article_id: string; refreshed_at: Date | string }>(
      sql`select article_id, refreshed_at from article_metrics where article_id in (${bare.id}, ${dated.id})`,
    );
    const at = new Map(metrics.map((m) => [m.article_id, new Date(m.refreshed_at).getTime()]));
    expect(at.get(bare.id)).toBeLessThan(recent.getTime() - 86_400_000);
    expect(at.get(dated.id)).toBeGreaterThan(recent.getTime() - 60_000);
  });
});
