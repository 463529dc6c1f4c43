import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import { EmbeddingPeer, embedHandler } from '../peers/embedding-peer.js';
import { sendJson } from '../peers/http-peer.js';
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
 * One write an article where no model call follows its analysis: the analysis is held and written
 * with the final status. Counted by a trigger on the articles table (each UPDATE of a row), so the
 * figure is the database's own. An analysis followed by a translation call is written first (a
 * retry never pays for it twice); a tagging step that fails for a while keeps the analysis, and the
 * retry asks the model nothing again.
 */
describe.each(dbKinds())('one article write a flow (%s)', (db) => {
  let t: TestApp;
  let llm: OpenAiPeer;
  let feeds: HttpPeer;
  let embeddings: EmbeddingPeer;
  const analysisCalls = new Map<string, number>();
  const ordinary = [makeItem(), makeItem(), makeItem()];
  const separate = makeItem({ title: 'Translated in a call of its own for this article' });
  const flakyTags = makeItem({ title: 'Tagging fails at first for this article' });
  /** the embedding service fails this many requests for the flaky article's own tag */
  let embedFailures = 1;

  beforeAll(async () => {
    llm = await new OpenAiPeer((call) => {
      const user = call.messages[1]?.content ?? '';
      const title = [...ordinary, separate, flakyTags].find((i) => user.includes(i.title))?.title ?? '?';
      if (!isTranslationCall(call)) analysisCalls.set(title, (analysisCalls.get(title) ?? 0) + 1);
      const reply = modelReply(call, { zhInAnalysis: title !== separate.title });
      // a tag of its own: creating it asks the embedding service
      if (title === flakyTags.title && !isTranslationCall(call))
        return JSON.stringify({ ...JSON.parse(reply), tags: ['flaky tagging'] });
      return reply;
    }).start();
    embeddings = await new EmbeddingPeer(8).start();
    const embed = embedHandler(8);
    embeddings.setHandler((req, res) => {
      const texts = (req.json() as { texts: string[] }).texts;
      if (texts.some((x) => x.toLowerCase().includes('flaky')) && embedFailures-- > 0)
        return sendJson(res, 503, { detail: 'busy' });
      return embed(req, res);
    });
    feeds = await startFeedServer({ '/feed.xml': rssFeed([...ordinary, separate, flakyTags]) });
    t = await buildTestApp({
      db,
      env: {
        EMBEDDING_URL: embeddings.url,
        EMBEDDING_DIMENSION: '8',
        JOB_RETRY_LIMIT: '2',
        JOB_RETRY_DELAY_SECONDS: '1',
      },
    });
    // every UPDATE of an article row, counted by the database
    const { db: d } = t.container.database;
    await d.execute(sql`create table article_updates (article_id uuid not null, status text not null)`);
    await d.execute(sql`create function count_article_update() returns trigger language plpgsql as $$
        begin insert into article_updates values (new.id, new.processing_status); return new; end $$`);
    await d.execute(sql`create trigger count_article_update after update on articles
        for each row execute function count_article_update()`);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([llm.stop(), feeds.stop(), embeddings.stop()]);
  });

  it('writes an article once when its analysis carried everything, and keeps the analysis across a retry', async () => {
    const admin = await t.login('admin');
    await seedPipeline(t.app, admin.headers, {
      sources: [{ name: 'Feed', url: `${feeds.url}/feed.xml` }],
      providerBaseUrl: llm.baseUrl,
    });
    const run = await t.container.services.scraper.runNow('cli');
    expect(run.status).toBe('completed');
    expect(run.counts).toMatchObject({ published: 5, analyzed: 5, tagged: 5, translated: 5 });

    const rows = rowsOf<{
      title: string;
      processing_status: string;
      summary: string | null;
      translations: Record<string, { title: string }>;
      metadata: Record<string, unknown>;
      tags: number;
      writes: string[];
    }>(
      await t.container.database.db.execute(sql`
        select a.title, a.processing_status, a.summary, a.translations, a.metadata,
               (select count(*)::int from article_tags l where l.article_id = a.id) as tags,
               array(select u.status from article_updates u where u.article_id = a.id) as writes
          from articles a`),
    );
    expect(rows).toHaveLength(5);
    const byTitle = (s: string) => rows.find((r) => r.title === s)!;
    for (const item of [...ordinary, separate, flakyTags]) {
      const r = byTitle(item.title);
      expect(r).toMatchObject({ processing_status: 'completed', summary: 'A model summary of the article.' });
      expect(r.translations['zh-TW']!.title).toBe(`譯：${item.title}`);
      expect(r.metadata.suggested_tags).toBeInstanceOf(Array);
      expect(r.metadata.llm_usage).toBeTruthy();
    }
    // the analysis carried the translation: one write, the final one
    for (const item of ordinary) {
      expect(byTitle(item.title).writes).toEqual(['completed']);
      expect(byTitle(item.title).tags).toBe(2);
      expect(analysisCalls.get(item.title)).toBe(1);
    }
    // a translation call follows: the analysis is written before it
    expect(byTitle(separate.title).writes).toEqual(['analyzed', 'completed']);
    // the tagging failed once: the analysis was written then, and the retry did not ask for it again
    expect(embedFailures).toBeLessThan(0);
    expect(byTitle(flakyTags.title).writes).toEqual(['analyzed', 'completed']);
    expect(byTitle(flakyTags.title).tags).toBe(1);
    expect(analysisCalls.get(flakyTags.title)).toBe(1);
  }, 90_000);
});
