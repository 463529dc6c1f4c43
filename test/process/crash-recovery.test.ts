import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileDist, initializedDataDir } from '../helpers/service-process.js';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../../src/infrastructure/db/client.js';
import { dbKinds } from '../helpers/db.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';
import {
  isTranslationCall,
  makeItem,
  modelReply,
  rssFeed,
  startFeedServer,
} from '../helpers/pipeline-factories.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import { killAll, seedThroughApi, startService, until } from './service-process.js';

// the service runs as `npm start` runs it, from dist/ (compiled once per test run)
beforeAll(() => compileDist(), 300_000);

const ADMIN = { email: 'crash-admin@example.test', password: 'crash-password-123' };
/**
 * enough that the SIGKILL (after 40 analyses) leaves most articles to the restarts, with at least
 * 8 to hold on the model when the SIGTERM comes (JOB_CONCURRENCY 16 are in flight at most)
 */
const N = 120;

/**
 * Must show (issue 15): the service is killed with SIGKILL in the middle of a scrape's article
 * processing, then started again on the same database. Every stored article reaches its final state
 * through its durable job, without a new scrape, none is stored twice, and work finished before the
 * kill is not done again (only the jobs in flight at the kill run again). The restarted service is
 * then stopped with SIGTERM while its jobs wait on the model: it exits 0 within the grace period,
 * handing the running jobs back, and the next start runs them at once (not after a retry backoff)
 * to the articles' final state.
 */
describe.each(dbKinds())('SIGKILL during a scrape, then a restart (%s)', (kind) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    killAll();
    for (const c of cleanups.reverse()) await c();
  });

  it('brings every stored article to its final state exactly once, without a new scrape', async () => {
    const items = Array.from({ length: N }, (_, i) =>
      makeItem({ title: `Crash article ${i}: ${makeItem().title}` }),
    );
    const feeds = await startFeedServer({ '/feed.xml': rssFeed(items) });
    cleanups.push(() => feeds.stop());
    const analysisCalls: string[] = [];
    const translated = new Set<string>();
    // closed: the model holds its answers (the jobs in flight wait on it)
    let gate: Promise<void> = Promise.resolve();
    let openGate = () => {};
    let held = 0;
    let lastCall = 0;
    const llm = await new OpenAiPeer(async (call) => {
      lastCall = Date.now();
      held++;
      await gate;
      held--;
      // slow enough that the kill lands while articles are being processed
      await new Promise((r) => setTimeout(r, 40));
      const user = call.messages[1]?.content ?? '';
      // two calls per article (no zh-TW in the analysis answer): the translations mark the progress
      if (isTranslationCall(call)) translated.add((JSON.parse(user) as { title: string }).title);
      else analysisCalls.push(user.slice(0, 200));
      return modelReply(call, { zhInAnalysis: false });
    }).start();
    cleanups.push(() => {
      openGate();
      return llm.stop();
    });

    let env: Record<string, string>;
    let open: () => ReturnType<typeof openDatabase>;
    if (kind === 'pglite') {
      // initialized and migrated: what is looked at here is the restarts, not the first start
      const dataDir = await initializedDataDir('ai-crash-');
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      env = { DATA_DIR: dataDir };
      open = () => openDatabase({ dataDir: join(dataDir, 'pglite'), migrate: false });
    } else {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, 'crash');
      cleanups.push(() => scratch.drop());
      const dataDir = mkdtempSync(join(tmpdir(), 'ai-crash-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      env = { DATABASE_URL: scratch.url, DATA_DIR: dataDir };
      open = () => openDatabase({ databaseUrl: scratch.url, migrate: false, poolSize: 2 });
    }
    Object.assign(env, {
      API_PORT: '0',
      PORT: '0',
      API_HOST: '127.0.0.1',
      HOST: '127.0.0.1',
      SCHEDULER_ENABLED: 'false',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      AUTH_SECRET: 'crash-test-secret-crash-test-secret-0123',
      SHUTDOWN_GRACE_SECONDS: '10',
      // the bound on repeated analyses below counts the flows in flight at the kill and the SIGTERM
      JOB_CONCURRENCY: '16',
      // PGlite: a job handed back by a dead or stopped process must run again at once, not after
      // this backoff (PostgreSQL's orphans wait for their heartbeat to expire, then a short backoff)
      ...(kind === 'pglite' ? { JOB_RETRY_DELAY_SECONDS: '120' } : {}),
    });

    const first = startService('all', env);
    const apiUrl = String((await first.waitFor('api.listening', 60_000)).url).replace('0.0.0.0', '127.0.0.1');
    await first.waitFor('process.started', 120_000);
    const { authorization } = await seedThroughApi(apiUrl, ADMIN, `${feeds.url}/feed.xml`, llm.baseUrl);
    const started = await fetch(`${apiUrl}/admin/scraper/runs`, {
      method: 'POST',
      headers: { authorization },
    });
    expect(started.status).toBe(202);

    await until(() => analysisCalls.length >= 40, 60_000, 'articles being processed');
    first.child.kill('SIGKILL');
    await first.exited;
    const analysedBeforeKill = analysisCalls.length;
    expect(translated.size).toBeLessThan(N); // the kill came in the middle of the run
    const feedReads = feeds.requests.length;

    // the restart: the jobs in flight at the kill are picked up again (with the model holding its
    // answers, so that they are still running when the SIGTERM comes)
    gate = new Promise((resolve) => (openGate = resolve));
    const second = startService('all', { ...env, SHUTDOWN_GRACE_SECONDS: '1' });
    await second.waitFor('api.listening', 60_000);
    await until(() => held >= 8, 60_000, `jobs waiting on the model after the restart (${held})`);
    if (kind === 'pglite')
      expect(Number((await second.waitFor('pipeline.jobs.recovered', 1000)).handed_back)).toBeGreaterThan(0);
    second.child.kill('SIGTERM');
    // stops within the grace period (1 s) with its jobs still waiting on the model: handed back
    expect(await second.exited, second.stderr().slice(-2000)).toBe(0);
    expect(second.lines.some((l) => l.event === 'process.stopped')).toBe(true);

    openGate();
    const third = startService('all', env);
    await third.waitFor('api.listening', 60_000);
    // the jobs the SIGTERM handed back run at once (the retry backoff on PGlite is 120 s)
    expect(Number((await third.waitFor('pipeline.jobs.recovered', 30_000)).handed_back)).toBeGreaterThan(0);
    // every article asked for its translation, then the model stays quiet: the jobs are done (the
    // checks below fail if one was left waiting, e.g. for its retry backoff)
    await until(
      () => translated.size === N && held === 0 && Date.now() - lastCall > 2000,
      90_000,
      `all ${N} articles translated (${translated.size})`,
    );
    if (kind === 'postgres') {
      const watcher = await open();
      try {
        await until(
          async () =>
            rowsOf<{ n: number }>(
              await watcher.db.execute(
                sql`select count(*)::int as n from articles where processing_status = 'completed'`,
              ),
            )[0]!.n === N,
          60_000,
          'every article stored as completed',
        );
      } finally {
        await watcher.close();
      }
    }
    third.child.kill('SIGTERM');
    expect(await third.exited, third.stderr().slice(-2000)).toBe(0);

    // no new scrape: the feed was not read again
    expect(feeds.requests.length).toBe(feedReads);
    for (const p of [second, third])
      expect(p.lines.some((l) => l.event === 'scraper.run.started')).toBe(false);
    // work done before the kill was not done again: only the jobs in flight at the kill and at the
    // SIGTERM (at most JOB_CONCURRENCY = 16 each) asked for an article's analysis a second time
    expect(analysisCalls.length).toBeGreaterThanOrEqual(N);
    expect(analysisCalls.length).toBeLessThanOrEqual(N + 32);
    expect(analysedBeforeKill).toBeLessThan(N);
    expect(translated.size).toBe(N);

    const database = await open();
    try {
      const rows = rowsOf<{
        id: string;
        url: string;
        status: string;
        summary: string | null;
        zh: boolean;
      }>(
        await database.db.execute(sql`
          select id, url, processing_status as status, summary, (translations ? 'zh-TW') as zh from articles`),
      );
      expect(rows).toHaveLength(N);
      expect(new Set(rows.map((r) => r.url)).size).toBe(N);
      // every article is processed, and no job is left waiting for an unfinished article. On
      // PostgreSQL a job whose flow had written its article's final state just before the SIGKILL,
      // but not yet been marked done, stays active until its heartbeat lapses, then waits for its
      // retry backoff: when it runs it finds the article final and ends at once, so it may still be
      // queued here
      expect(rows.filter((r) => r.status !== 'completed')).toEqual([]);
      const waiting = rowsOf<{ n: number }>(
        await database.db.execute(sql`
          select count(*)::int as n from pgboss.job j
          left join articles a on a.id::text = j.data->>'articleId'
          where j.name = 'article.pipeline' and j.state in ('created', 'retry', 'active')
            and (a.id is null or a.processing_status <> 'completed')`),
      );
      expect(waiting[0]!.n).toBe(0);
      expect(rows.filter((r) => r.status === 'completed').every((r) => r.summary && r.zh)).toBe(true);
      // the run the kill left `running` was closed as `interrupted` at the restart
      const runs = rowsOf<{ status: string }>(
        await database.db.execute(sql`select status from scraper_runs`),
      );
      expect(runs.map((r) => r.status)).toEqual(['interrupted']);
    } finally {
      await database.close();
    }
  }, 300_000);
});
