import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dbKinds } from '../helpers/db.js';
import { makeSource, makeTopic } from '../helpers/article-factories.js';
import type { Database } from '../../src/infrastructure/db/client.js';
import {
  DrizzleArticleStore,
  DrizzleRunStore,
} from '../../src/infrastructure/db/repositories/pipeline.repository.js';
import { DrizzleSourceRepository } from '../../src/infrastructure/db/repositories/catalog.repository.js';
import { DrizzleSourceFetchRepository } from '../../src/infrastructure/db/repositories/source-fetch.repository.js';
import { DrizzleTagRepository } from '../../src/infrastructure/db/repositories/tag.repository.js';
import { DrizzleReportRepository } from '../../src/infrastructure/db/repositories/report.repository.js';
import { storableString } from '../../src/infrastructure/db/storable-params.js';
import {
  articles,
  runErrors,
  scraperRuns,
  scraperSkips,
  sourceFetches,
  sources,
  tagGroups,
  tags,
  weeklyReports,
} from '../../src/infrastructure/db/schema/index.js';

/**
 * Every text and jsonb column written from feed, page, model or error text, fuzzed with U+0000 and
 * lone surrogates (and their JSON escapes) through the repositories that write them: each write
 * succeeds, nothing unstorable is stored, and data columns keep everything else exactly.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);

const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00', '\\u0000', '\\ud800'),
      fc.constantFrom('a', 'é', '漢字', ' ', '\n', '"', '\\', '\u0001', '\ufffd'),
      // any UTF-16 code unit: NUL, controls and both halves of a pair on their own
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      fc.string({ maxLength: 6 }),
    ),
    { minLength: 1, maxLength: 16 },
  )
  .map((parts) => parts.join(''));

// eslint-disable-next-line no-control-regex -- finding U+0000 is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** storable: no U+0000 and no lone surrogate in any string, keys of objects included */
function expectStorable(value: unknown): void {
  if (typeof value === 'string') return void expect(value).not.toMatch(UNSTORABLE);
  if (value === null || typeof value !== 'object' || value instanceof Date) return;
  for (const [k, v] of Object.entries(value)) {
    expect(k).not.toMatch(UNSTORABLE);
    expectStorable(v);
  }
}

let seq = 0;
const unique = () => `${Date.now().toString(36)}-${++seq}`;

describe.each(dbKinds())('text from outside at the storage boundary (%s)', (kind) => {
  let database: Database;
  let topicId: string;
  let sourceId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    topicId = (await makeTopic(database.db)).id;
    sourceId = (await makeSource(database.db, { topicId })).id;
  });
  afterAll(async () => database?.close());

  const newRun = async () =>
    (await new DrizzleRunStore(database.db).create({ trigger: 'test', correlationId: 'c' })).id;

  it('articles: every column a feed fills, on the bulk insert', { timeout: 120_000 }, async () => {
    const store = new DrizzleArticleStore(database.db);
    const runId = await newRun();
    await fc.assert(
      fc.asyncProperty(hostile, hostile, hostile, async (a, b, c) => {
        const url = `https://feed.example.test/${unique()}/${a}`;
        const row = {
          topicId,
          sourceId,
          runId,
          source: b,
          url,
          canonicalUrl: url,
          title: a,
          normalizedTitle: b,
          author: c,
          content: `${a}${b}${c}`,
          publishedAt: null,
          doi: `10.1/${b}`,
          arxivId: c,
          metadata: { feed_summary: a, categories: [b, c], content_html: c, [b]: a },
        };
        const { inserted, refused } = await store.insertMany([row]);
        expect(refused).toEqual([]);
        expect(inserted).toHaveLength(1);
        const [stored] = await database.db.select().from(articles).where(eq(articles.id, inserted[0]!.id));
        for (const key of [
          'source',
          'title',
          'normalizedTitle',
          'author',
          'content',
          'doi',
          'arxivId',
        ] as const)
          expect(stored![key]).toBe(storableString(row[key]));
        expect(stored!.url).toBe(storableString(url));
        expect(stored!.metadata).toEqual({
          feed_summary: storableString(a),
          categories: [storableString(b), storableString(c)],
          content_html: storableString(c),
          [storableString(b)]: storableString(a),
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('articles: what the analysis, translation and failures write later', { timeout: 120_000 }, async () => {
    const store = new DrizzleArticleStore(database.db);
    const runId = await newRun();
    // a final status is written once (the pipeline's moves): each case writes a new article
    const insertOne = async () => {
      const url = `https://feed.example.test/${unique()}`;
      const { inserted } = await store.insertMany([
        {
          topicId,
          sourceId,
          runId,
          source: 's',
          url,
          canonicalUrl: url,
          title: 't',
          normalizedTitle: 't',
          author: null,
          content: null,
          publishedAt: null,
          doi: null,
          arxivId: null,
          metadata: {},
        },
      ]);
      return inserted[0]!.id;
    };
    await fc.assert(
      fc.asyncProperty(hostile, hostile, async (a, b) => {
        const id = await insertOne();
        await store.update(id, {
          content: a,
          summary: b,
          language: b.slice(0, 8),
          processingStatus: 'analysis_failed',
          processingError: a,
          translations: { 'zh-TW': { title: a, summary: b } },
          metadata: { model_note: b, [a]: [a] },
        });
        const [stored] = await database.db.select().from(articles).where(eq(articles.id, id));
        expect(stored!.content).toBe(storableString(a));
        expect(stored!.summary).toBe(storableString(b));
        expectStorable(stored!.processingError);
        expect(stored!.translations['zh-TW']).toEqual({
          title: storableString(a),
          summary: storableString(b),
        });
        expect(stored!.metadata.model_note).toBe(storableString(b));
        expect(stored!.metadata[storableString(a)]).toEqual([storableString(a)]);
      }),
      { numRuns: RUNS },
    );
  });

  it('sources.last_error and the fetch history', { timeout: 120_000 }, async () => {
    const repo = new DrizzleSourceRepository(database.db);
    const fetches = new DrizzleSourceFetchRepository(database.db);
    const runId = await newRun();
    await fc.assert(
      fc.asyncProperty(hostile, async (a) => {
        await repo.update(sourceId, { lastError: `malformed XML: ${a}`, lastFetchedAt: new Date() });
        await fetches.add([
          {
            sourceId,
            runId,
            startedAt: new Date(),
            durationMs: 1,
            httpStatus: 200,
            itemsSeen: 0,
            itemsNew: 0,
            itemsDuplicate: 0,
            errorCode: 'malformed',
            error: a,
          },
        ]);
        const [source] = await database.db.select().from(sources).where(eq(sources.id, sourceId));
        expectStorable(source!.lastError);
        expect(source!.lastError).toMatch(/^malformed XML: /);
        const history = await database.db.select().from(sourceFetches).where(eq(sourceFetches.runId, runId));
        for (const h of history) expectStorable(h.error);
      }),
      { numRuns: RUNS },
    );
  });

  it('runs: the error, the item errors and the skipped items', { timeout: 120_000 }, async () => {
    const runs = new DrizzleRunStore(database.db);
    await fc.assert(
      fc.asyncProperty(hostile, hostile, async (a, b) => {
        const runId = await newRun();
        await runs.addErrors(runId, [{ sourceId, message: a }]);
        await runs.recordSkips(runId, [
          { url: `https://x.test/${a}`, reason: 'refused', duplicateOf: null, detail: b },
        ]);
        await runs.finish(runId, { status: 'failed', counts: {}, error: `${a}${b}` });
        const [run] = await database.db.select().from(scraperRuns).where(eq(scraperRuns.id, runId));
        expect(run!.status).toBe('failed');
        expectStorable(run!.error);
        expect(run!.error).not.toMatch(/could not be stored/);
        const errs = await database.db.select().from(runErrors).where(eq(runErrors.runId, runId));
        expect(errs).toHaveLength(1);
        expectStorable(errs[0]!.message);
        const skips = await database.db.select().from(scraperSkips).where(eq(scraperSkips.runId, runId));
        expect(skips).toHaveLength(1);
        expectStorable(skips[0]);
      }),
      { numRuns: RUNS },
    );
  });

  it('tags, tag groups and their sparse vectors from the model', { timeout: 120_000 }, async () => {
    const repo = new DrizzleTagRepository(database.db);
    await fc.assert(
      fc.asyncProperty(hostile, hostile, async (a, b) => {
        const name = `${unique()} ${a}`;
        const tag = await repo.insertTag({ topicId, name, embedding: { [a]: 0.5, [b]: 0.25 } });
        expect(tag).not.toBeNull();
        const [stored] = await database.db.select().from(tags).where(eq(tags.id, tag!.id));
        expect(stored!.name).toBe(storableString(name));
        expectStorable(stored!.sparseEmbedding);
        const group = await repo.createGroup({
          topicId,
          name: `${unique()} ${b}`,
          displayName: b,
          description: a,
          colorHex: null,
          embedding: null,
        });
        const [g] = await database.db.select().from(tagGroups).where(eq(tagGroups.id, group.id));
        expect(g!.displayName).toBe(storableString(b));
        expect(g!.description).toBe(storableString(a));
      }),
      { numRuns: RUNS },
    );
  });

  it('weekly reports the model wrote, with their translations', { timeout: 120_000 }, async () => {
    const repo = new DrizzleReportRepository(database.db);
    let day = 0;
    await fc.assert(
      fc.asyncProperty(hostile, hostile, async (a, b) => {
        const weekStartDate = new Date(Date.UTC(2020, 0, 6 + 7 * day++)).toISOString().slice(0, 10);
        const report = await repo.saveCompleted({
          topicId,
          weekStartDate,
          method: 'model',
          grounding: {
            score: 1,
            method: 'local',
            checked_at: new Date().toISOString(),
            sentences: [
              { index: 0, text: a, citations: [1], support: 'supported', evidence: [{ n: 1, quote: b }] },
            ],
            removed: [{ text: b, reason: 'not_in_source' }],
          },
          title: a,
          summaryText: `${a} [1] ${b}`,
          coverImageUrl: null,
          articleCount: 0,
          articleIds: [],
          translations: { 'zh-TW': { title: b, summary_text: a } },
        });
        const [stored] = await database.db
          .select()
          .from(weeklyReports)
          .where(eq(weeklyReports.id, report.id));
        expect(stored!.title).toBe(storableString(a));
        expect(stored!.translations['zh-TW']).toEqual({
          title: storableString(b),
          summary_text: storableString(a),
        });
        expectStorable(stored);
      }),
      { numRuns: RUNS },
    );
  });
});
