import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileDist } from '../helpers/service-process.js';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/composition/container.js';
import { openDatabase } from '../../src/infrastructure/db/client.js';
import {
  DrizzleArticleStore,
  DrizzleRunStore,
} from '../../src/infrastructure/db/repositories/pipeline.repository.js';
import { DrizzleArticleStates } from '../../src/infrastructure/db/repositories/article-states.repository.js';
import { ARTICLE_QUEUE } from '../../src/application/pipeline/article-jobs.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';
import { articleRow, isTranslationCall, makeItem, modelReply } from '../helpers/pipeline-factories.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import { killAll, startService, until } from './service-process.js';

// the service runs as `npm start` runs it, from dist/ (compiled once per test run)
beforeAll(() => compileDist(), 300_000);

const N = 400;

/**
 * Must show (issue 15): two `worker` processes on PostgreSQL share the article queue; counted from
 * their processing logs, every article is analysed exactly once, by one of them, and both worked.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two workers on PostgreSQL', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    killAll();
    for (const c of cleanups.reverse()) await c();
  });

  it('process each article exactly once between them', async () => {
    const llm = await new OpenAiPeer(async (call) => {
      await new Promise((r) => setTimeout(r, 5));
      return modelReply(call);
    }).start();
    cleanups.push(() => llm.stop());
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'workers');
    cleanups.push(() => scratch.drop());
    const dataDir = mkdtempSync(join(tmpdir(), 'ai-workers-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATABASE_URL: scratch.url, DATA_DIR: dataDir, SCHEDULER_ENABLED: 'false' };

    // the first worker migrates the new database, the second starts on it
    const a = startService('worker', env);
    await a.waitFor('pipeline.jobs.started', 60_000);
    const b = startService('worker', env);
    await b.waitFor('pipeline.jobs.started', 60_000);

    const { database, container, runId, ids } = await seedJobs(scratch.url, dataDir, llm.baseUrl, N);
    cleanups.push(async () => {
      await container.close();
      await database.close();
    });
    const states = new DrizzleArticleStates(database.db);
    await until(
      async () => (await states.summarize(runId)).pending === 0,
      120_000,
      'every article processed',
    );
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);

    const analysed = (lines: Record<string, unknown>[]) =>
      lines.filter((l) => l.event === 'article.analysis.summarized').map((l) => String(l.article_id));
    const byA = analysed(a.lines);
    const byB = analysed(b.lines);
    const all = [...byA, ...byB];
    // exactly once: N analyses in all, N distinct articles, none in both workers' logs
    expect(all).toHaveLength(N);
    expect(new Set(all).size).toBe(N);
    expect(new Set(ids)).toEqual(new Set(all));
    // both shared the queue
    expect(byA.length).toBeGreaterThan(0);
    expect(byB.length).toBeGreaterThan(0);
    expect(await states.summarize(runId)).toMatchObject({
      pending: 0,
      counts: { completed: N, translated: N },
    });
    // one analysis call per article at the model
    expect(llm.chatCalls.filter((c) => !isTranslationCall(c))).toHaveLength(N);
  }, 240_000);

  it('SIGTERM hands the running jobs back within SHUTDOWN_GRACE_SECONDS and exits 0; another worker finishes them', async () => {
    let slow = true;
    let inFlight = 0;
    const llm = await new OpenAiPeer(async (call) => {
      if (slow && !isTranslationCall(call)) {
        inFlight++;
        // far longer than the grace period: the worker cannot finish these before it stops
        await new Promise((r) => setTimeout(r, 8000));
      }
      return modelReply(call);
    }).start();
    cleanups.push(() => llm.stop());
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'sigterm');
    cleanups.push(() => scratch.drop());
    const dataDir = mkdtempSync(join(tmpdir(), 'ai-sigterm-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = {
      DATABASE_URL: scratch.url,
      DATA_DIR: dataDir,
      SCHEDULER_ENABLED: 'false',
      SHUTDOWN_GRACE_SECONDS: '1',
      JOB_RETRY_DELAY_SECONDS: '1',
    };

    const first = startService('worker', env);
    await first.waitFor('pipeline.jobs.started', 60_000);
    const { database, container, runId } = await seedJobs(scratch.url, dataDir, llm.baseUrl, 4);
    cleanups.push(async () => {
      await container.close();
      await database.close();
    });
    await until(() => inFlight === 4, 30_000, 'four analyses in flight');

    const signalled = Date.now();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // the grace period (1 s) and the close, not the 8 s of the model calls
    expect(Date.now() - signalled).toBeLessThan(6000);
    expect(first.lines.some((l) => l.event === 'process.stopped')).toBe(true);
    const states = new DrizzleArticleStates(database.db);
    expect((await states.summarize(runId)).pending).toBe(4);

    slow = false;
    const second = startService('worker', env);
    cleanups.push(async () => {
      second.child.kill('SIGTERM');
      await second.exited;
    });
    await until(async () => (await states.summarize(runId)).pending === 0, 60_000, 'the handed-back jobs');
    expect(await states.summarize(runId)).toMatchObject({ counts: { completed: 4, translated: 4 } });
    expect(second.lines.filter((l) => l.event === 'article.analysis.summarized')).toHaveLength(4);
  }, 120_000);
});

/** what a scrape's publish stage does: store the articles, then send one job each */
async function seedJobs(url: string, dataDir: string, llmBaseUrl: string, n: number) {
  const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
  const container = await createContainer(
    loadConfig({ DATABASE_URL: url, DATA_DIR: dataDir, AUTH_SECRET: 'w'.repeat(32), LOG_LEVEL: 'silent' }),
    { database, logger: pino({ level: 'silent' }) },
  );
  const catalog = container.services.catalog;
  const topic = await catalog.createTopic({ name: `Workers ${Math.random()}` });
  const source = await catalog.createSource({
    topic_id: topic.id,
    name: 'Feed',
    kind: 'rss',
    url: `https://feed.example/${Math.random()}`,
  });
  if (!(await catalog.listProviders()).length)
    await catalog.createProvider({
      name: 'peer',
      type: 'text',
      base_url: llmBaseUrl,
      model: 'm',
      is_active: true,
    });
  const run = await new DrizzleRunStore(database.db).create({
    trigger: 'cli',
    correlationId: 'workers-test',
  });
  const items = Array.from({ length: n }, (_, i) =>
    makeItem({ title: `Worker article ${i}: ${makeItem().title}` }),
  );
  const { inserted: stored } = await new DrizzleArticleStore(database.db).insertMany(
    items.map((it) => articleRow(it, { topicId: topic.id, sourceId: source.id, runId: run.id })),
  );
  expect(stored).toHaveLength(n);
  const sent = await container.queue.send(
    ARTICLE_QUEUE,
    stored.map((s) => ({
      key: s.id,
      data: { articleId: s.id, runId: run.id, topicId: topic.id, url: s.canonicalUrl, source: 'Feed' },
    })),
  );
  expect(sent).toBe(n);
  return { database, container, runId: run.id, ids: stored.map((s) => s.id) };
}
