import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import type { HttpPeer } from '../peers/http-peer.js';
import {
  makeItem,
  isTranslationCall,
  modelReply,
  rssFeed,
  seedPipeline,
  startFeedServer,
} from '../helpers/pipeline-factories.js';

/**
 * Articles whose results the database refuses (a NUL character in text) while their neighbours'
 * writes share statements with them: each fails on its own, with its failure status, and every
 * other article of the run is stored complete.
 */
/**
 * distinct words whose search document exceeds PostgreSQL's tsvector limit (1 MB): a value the
 * database refuses (a NUL no longer is one: it is dropped at the storage boundary)
 */
const TOO_LONG_FOR_TSVECTOR = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}`).join(' ');

describe.each(dbKinds())('articles failing while their writes are batched (%s)', (db) => {
  let t: TestApp;
  let llm: OpenAiPeer;
  let feeds: HttpPeer;
  const items = [
    ...Array.from({ length: 6 }, () => makeItem()),
    makeItem({ title: 'Poisoned summary for this single article' }),
    makeItem({ title: 'Poisoned translation for this single article' }),
  ];

  beforeAll(async () => {
    llm = await new OpenAiPeer((call) => {
      const user = call.messages[1]?.content ?? '';
      // the poisoned translation comes from its own call (the analysis answer leaves zh-TW out)
      const reply = modelReply(call, { zhInAnalysis: !user.includes('Poisoned translation') });
      if (user.includes('Poisoned summary') && !isTranslationCall(call))
        return JSON.stringify({ ...JSON.parse(reply), summary: TOO_LONG_FOR_TSVECTOR });
      if (user.includes('Poisoned translation') && isTranslationCall(call))
        return JSON.stringify({ ...JSON.parse(reply), title: `譯：${TOO_LONG_FOR_TSVECTOR}` });
      return reply;
    }).start();
    feeds = await startFeedServer({ '/feed.xml': rssFeed(items) });
    t = await buildTestApp({ db });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([llm.stop(), feeds.stop()]);
  });

  it('stores the failure of each failing article and everything of the others', async () => {
    const admin = await t.login('admin');
    await seedPipeline(t.app, admin.headers, {
      sources: [{ name: 'Feed', url: `${feeds.url}/feed.xml` }],
      providerBaseUrl: llm.baseUrl,
    });
    const run = await t.container.services.scraper.runNow('cli');
    expect(run.status).toBe('completed');
    expect(run.counts).toMatchObject({
      published: 8,
      analyzed: 7,
      analysis_failed: 1,
      tagged: 7,
      translated: 6,
      translation_failed: 1,
    });

    const rows = rowsOf<{
      id: string;
      title: string;
      content: string | null;
      language: string | null;
      summary: string | null;
      processing_status: string;
      processing_error: string | null;
      translations: Record<string, { title: string }>;
      metadata: Record<string, unknown>;
      tags: number;
    }>(
      await t.container.database.db.execute(sql`
        select a.*, (select count(*)::int from article_tags l where l.article_id = a.id) as tags
          from articles a`),
    );
    expect(rows).toHaveLength(8);
    const byTitle = (s: string) => rows.find((r) => r.title.startsWith(s))!;

    const noSummary = byTitle('Poisoned summary');
    expect(noSummary).toMatchObject({ processing_status: 'analysis_failed', summary: null, tags: 0 });
    expect(noSummary.processing_error).toBeTruthy();
    // the text and language found before the analysis are kept with the failure
    expect(noSummary.content).toContain('sparse attention');
    expect(noSummary.language).toBe('en');

    // the run record names both failed articles with their stage and reason (issue 15)
    const record = await t.container.services.runs.get(run.id);
    expect(record.status).toBe('completed_with_errors');
    expect(record.errors.map((e) => e.article_id).sort()).toEqual(
      [noSummary.id, byTitle('Poisoned translation').id].sort(),
    );
    expect(record.errors.map((e) => e.message.split(':')[0]).sort()).toEqual([
      'analysis failed',
      'translation failed',
    ]);

    const noTranslation = byTitle('Poisoned translation');
    expect(noTranslation).toMatchObject({
      processing_status: 'translation_failed',
      summary: 'A model summary of the article.',
      translations: {},
      tags: 2,
    });
    expect(noTranslation.processing_error).toBeTruthy();

    const others = rows.filter((r) => !r.title.startsWith('Poisoned'));
    expect(others).toHaveLength(6);
    for (const r of others) {
      expect(r).toMatchObject({
        processing_status: 'completed',
        processing_error: null,
        summary: 'A model summary of the article.',
        language: 'en',
        tags: 2,
      });
      expect(r.translations['zh-TW']!.title).toBe(`譯：${r.title}`);
      expect(r.metadata).toMatchObject({ suggested_tags: ['protein folding', 'attention'] });
    }
  });
});
