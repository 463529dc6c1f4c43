import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { openDatabase } from '../../src/infrastructure/db/client.js';
import {
  DrizzleArticleStore,
  DrizzleRunStore,
} from '../../src/infrastructure/db/repositories/pipeline.repository.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import {
  articleRow,
  makeItem,
  isTranslationCall,
  modelReply,
  rssFeed,
  seedPipeline,
  startFeedServer,
} from '../helpers/pipeline-factories.js';
import { makeSource, makeTopic } from '../helpers/article-factories.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import { TelegramPeer } from '../peers/telegram-peer.js';

/** a logger writing JSON lines to memory: which worker said what */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n'))
        if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

const telegramEnv = (url: string) => ({
  TELEGRAM_BOT_TOKEN: '123:abc',
  TELEGRAM_API_URL: url,
  TELEGRAM_OPS_CHAT_ID: '-100888',
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.each(dbKinds())('a run of no new article (%s)', (db) => {
  it('ends at once, in its own process, with one pipeline-completed notice', async () => {
    const telegram = await new TelegramPeer().start();
    cleanups.push(() => telegram.stop());
    const known = makeItem();
    const feeds = await startFeedServer({ '/feed.xml': rssFeed([known]) });
    cleanups.push(() => feeds.stop());
    const { logger, lines } = capturedLogger();
    const t: TestApp = await buildTestApp({ db, env: telegramEnv(telegram.url), logger });
    cleanups.push(() => t.close());
    const admin = await t.login('admin');
    await seedPipeline(t.app, admin.headers, { sources: [{ name: 'Feed', url: `${feeds.url}/feed.xml` }] });
    const first = await t.container.services.scraper.runNow('cli');
    expect(first.counts).toMatchObject({ published: 1, completed: 1 });

    // the second run finds only what it has: nothing to wait for
    const second = await t.container.services.scraper.runNow('cli');
    expect(second).toMatchObject({ status: 'completed', finished_at: expect.any(String) });
    expect(second.counts).toMatchObject({ discovered: 1, duplicates: 1, published: 0 });
    const ofRun = (event: string) => lines.filter((l) => l.event === event && l.run_id === second.id);
    const published = ofRun('pipeline.stage.completed').find((l) => l.stage === 'publish')!;
    const ended = ofRun('scraper.run.completed');
    expect(ended).toHaveLength(1);
    // ended right after its publish stage, by the run itself: no waiting for a re-read of the record
    expect(Number(ended[0]!.time) - Number(published.time)).toBeLessThan(1000);
    expect(telegram.messages.filter((m) => m.text.includes(second.id))).toHaveLength(1);
  }, 60_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('two workers finishing a run at the same moment', () => {
  it('the run ends once: one scraper.pipeline_completed, from one of them', async () => {
    const N = 6;
    // every translation is held until all N have arrived, then all are answered at once: the
    // articles' final writes land together, from both workers (each takes at most 4 jobs at once)
    let held = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const llm = await new OpenAiPeer(async (call) => {
      // the final step's call is held: the translation, asked alone (no zh-TW in the analysis answer)
      if (isTranslationCall(call)) {
        if (++held === N) release();
        await gate;
      }
      return modelReply(call, { zhInAnalysis: false });
    }).start();
    cleanups.push(() => llm.stop());
    const telegram = await new TelegramPeer().start();
    cleanups.push(() => telegram.stop());
    const items = Array.from({ length: N }, () => makeItem());
    const feeds = await startFeedServer({ '/feed.xml': rssFeed(items) });
    cleanups.push(() => feeds.stop());

    const env = { ...telegramEnv(telegram.url), JOB_CONCURRENCY: '4' };
    const a = capturedLogger();
    const one = await buildTestApp({ db: 'postgres', env, logger: a.logger });
    cleanups.push(() => one.close());
    // the second worker: its own container and connections on the same database
    const database = await openDatabase({
      databaseUrl: one.container.database.connectionString!,
      poolSize: 5,
    });
    const b = capturedLogger();
    const two = await buildTestApp({ database, env, logger: b.logger });
    cleanups.push(async () => {
      await two.close();
      await database.close();
    });
    for (const t of [one, two]) await t.container.workers.find((w) => w.name === 'article-jobs')!.ready?.();

    const admin = await one.login('admin');
    await seedPipeline(one.app, admin.headers, {
      sources: [{ name: 'Feed', url: `${feeds.url}/feed.xml` }],
      providerBaseUrl: llm.baseUrl,
    });
    const run = await one.container.services.scraper.runNow('cli');
    expect(run.status).toBe('completed');
    expect(run.counts).toMatchObject({ published: N, completed: N, translated: N });

    const translatedBy = (lines: Record<string, unknown>[]) =>
      lines.filter((l) => l.event === 'article.translation.completed' && l.run_id === run.id).length;
    // both workers finished articles of the run
    expect(translatedBy(a.lines)).toBeGreaterThan(0);
    expect(translatedBy(b.lines)).toBeGreaterThan(0);
    expect(translatedBy(a.lines) + translatedBy(b.lines)).toBe(N);
    // and exactly one of them ended it. The run's process hears of an end written by the other
    // worker when that worker's transaction commits (NOTIFY), which may be before the other has
    // logged it: the line is waited for, then counted
    const ended = () =>
      [...a.lines, ...b.lines].filter((l) => l.event === 'scraper.run.completed' && l.run_id === run.id);
    await expect.poll(() => ended().length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(ended()).toHaveLength(1);
    const pushed = [...a.lines, ...b.lines].filter(
      (l) => l.event === 'scraper.metrics.pushed' && l.run_id === run.id,
    );
    expect(pushed).toHaveLength(1);
    expect(telegram.messages.filter((m) => m.text.includes(run.id))).toHaveLength(1);
  }, 90_000);

  it('of two final writes committed at once on two connections, exactly one ends the run', async () => {
    const t = await buildTestApp({ db: 'postgres' });
    cleanups.push(() => t.close());
    const second = await openDatabase({ databaseUrl: t.container.database.connectionString!, poolSize: 2 });
    cleanups.push(() => second.close());
    const stores = [new DrizzleArticleStore(t.container.database.db), new DrizzleArticleStore(second.db)];
    const runs = new DrizzleRunStore(t.container.database.db);
    const topic = await makeTopic(t.container.database.db);
    const source = await makeSource(t.container.database.db, { topicId: topic.id });
    for (let round = 0; round < 20; round++) {
      const run = await runs.create({ trigger: 'cli', correlationId: `race-${round}` });
      await runs.holdArticles(run.id);
      const { inserted } = await stores[0]!.insertMany(
        [makeItem(), makeItem()].map((it) =>
          articleRow(it, { topicId: topic.id, sourceId: source.id, runId: run.id }),
        ),
      );
      expect(await runs.releaseArticles(run.id, { published: 2 })).toBe(false);
      for (const [i, row] of inserted.entries())
        await stores[i]!.update(row.id, { processingStatus: 'analyzed' });
      const writes = await Promise.all(
        inserted.map((row, i) => stores[i]!.update(row.id, { processingStatus: 'completed' })),
      );
      expect(
        writes.filter((w) => w.runEnded),
        `round ${round}`,
      ).toHaveLength(1);
      // a final write again (a job run twice) neither writes nor ends anything
      expect(await stores[0]!.update(inserted[0]!.id, { processingStatus: 'completed' })).toEqual({
        runEnded: false,
      });
      expect(await runs.claimEnd(run.id, true)).toBe(true);
      expect(await runs.claimEnd(run.id, true)).toBe(false);
    }
  }, 60_000);
});
