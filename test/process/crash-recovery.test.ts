import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../../src/infrastructure/db/client.js';
import { dbKinds } from '../helpers/db.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';
import { makeItem, modelReply, rssFeed, startFeedServer } from '../helpers/pipeline-factories.js';
import { OpenAiPeer } from '../peers/openai-peer.js';
import { killAll, seedThroughApi, startService, until } from './service-process.js';

const ADMIN = { email: 'crash-admin@example.test', password: 'crash-password-123' };
const N = 240;

/**
 * Must show (issue 15): the service is killed with SIGKILL in the middle of a scrape's article
 * processing, then started again on the same database. Every stored article reaches its final state
 * through its durable job, without a new scrape, none is stored twice, and work finished before the
 * kill is not done again (only the jobs in flight at the kill run again).
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
    const llm = await new OpenAiPeer(async (call) => {
      // slow enough that the kill lands while articles are being processed
      await new Promise((r) => setTimeout(r, 40));
      const user = call.messages[1]?.content ?? '';
      if (call.messages[0]!.content.includes('Traditional Chinese'))
        translated.add((JSON.parse(user) as { title: string }).title);
      else analysisCalls.push(user.slice(0, 200));
      return modelReply(call);
    }).start();
    cleanups.push(() => llm.stop());

    let env: Record<string, string>;
    let open: () => ReturnType<typeof openDatabase>;
    if (kind === 'pglite') {
      const dataDir = mkdtempSync(join(tmpdir(), 'ai-crash-'));
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

    const second = startService('all', env);
    await second.waitFor('api.listening', 60_000);
    await until(() => translated.size === N, 120_000, `all ${N} articles translated (${translated.size})`);
    // the last writes land (a job that answered its model stores its result), then SIGTERM; PGlite's
    // directory is the running service's alone, so there the test gives it a second
    if (kind === 'pglite') await new Promise((r) => setTimeout(r, 1000));
    else {
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
    second.child.kill('SIGTERM');
    expect(await second.exited, second.stderr().slice(-2000)).toBe(0);

    // no new scrape: the feed was not read again
    expect(feeds.requests.length).toBe(feedReads);
    expect(second.lines.some((l) => l.event === 'scraper.run.started')).toBe(false);
    // work done before the kill was not done again: only the jobs in flight (at most
    // JOB_CONCURRENCY = 16) analysed an article a second time
    expect(analysisCalls.length).toBeGreaterThanOrEqual(N);
    expect(analysisCalls.length).toBeLessThanOrEqual(N + 16);
    expect(analysedBeforeKill).toBeLessThan(N);

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
      // every article is processed, or (PGlite: the SIGTERM came right after the last model call)
      // its job was handed back to the queue and waits for the next start: nothing is lost
      const queued = new Set(
        rowsOf<{ key: string }>(
          await database.db.execute(
            sql`select singleton_key as key from pgboss.job where name = 'article.pipeline' and state in ('created', 'retry')`,
          ),
        ).map((r) => r.key),
      );
      const unfinished = rows.filter((r) => r.status !== 'completed');
      if (kind === 'postgres') expect(unfinished).toEqual([]);
      expect(unfinished.filter((r) => !queued.has(r.id))).toEqual([]);
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
