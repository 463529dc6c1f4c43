import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/infrastructure/db/client.js';
import { seedDatabase } from '../../src/infrastructure/db/seed.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import { waitForRun } from '../helpers/runs.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';
import { HttpPeer, sendJson } from '../peers/http-peer.js';
import { TcpProxy } from '../peers/tcp-proxy.js';

const adminUrl = process.env.TEST_DATABASE_URL;

/**
 * A run's end is written even when PostgreSQL drops the service's connections just as the job ends
 * (a restart of the server, a failover, a pool that times out under load): the Jobs page showed such
 * a metric refresh as "Running" for good, because the one write of its end failed and the process
 * kept its heartbeat alive, so no sweep ever closed it. PostgreSQL only: PGlite has no connection to
 * lose.
 */
describe.runIf(adminUrl)('a run whose end meets a database fault (postgres)', () => {
  let proxy: TcpProxy;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: Database;
  let t: TestApp;
  let gate: Promise<void> = Promise.resolve();
  let openGate = () => {};
  const s2 = new HttpPeer(async (_req, res) => {
    await gate;
    sendJson(res, 200, { paperId: 'p', citationCount: 5 });
  });

  beforeAll(async () => {
    await s2.start();
    scratch = await createScratchDatabase(adminUrl!, 'runend');
    const target = new URL(adminUrl!);
    proxy = await new TcpProxy(target.hostname, Number(target.port || 5432)).start();
    const url = new URL(scratch.url);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    database = await openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
    await seedDatabase(database.db);
    t = await buildTestApp({
      database,
      env: {
        SEMANTIC_SCHOLAR_API_URL: s2.url,
        OPENALEX_API_URL: s2.url,
        CROSSREF_API_URL: s2.url,
        CITATION_REQUESTS_PER_SECOND: '1000',
      },
    });
    const topic = await makeTopic(database.db, { name: 'Faults' });
    await makeArticle(database.db, { topicId: topic.id, title: 'A cited paper', doi: '10.1000/cited' });
  });
  afterAll(async () => {
    openGate();
    proxy?.restore();
    await t?.close();
    await database?.close();
    await proxy?.stop();
    await scratch?.drop();
    await s2.stop();
  });

  it('a metric refresh whose connections drop as it ends is recorded as ended, not left running', async () => {
    const admin = await t.login('admin');
    gate = new Promise((resolve) => (openGate = resolve));
    const started = await t.app.inject({
      method: 'POST',
      url: '/admin/jobs/refresh-metrics',
      headers: admin.headers,
    });
    expect(started.statusCode).toBe(202);
    const runId = started.json<{ run_id: string }>().run_id;
    await expect.poll(() => s2.requests.length, { timeout: 10_000 }).toBeGreaterThan(0);

    // the connections go while the job waits on the citation API; its writes and its end fail
    proxy.cut();
    openGate();
    await new Promise((r) => setTimeout(r, 2000));
    proxy.restore();
    await expect
      .poll(async () => (await t.app.inject({ url: '/ready' })).statusCode, { timeout: 10_000 })
      .toBe(200);

    // the end is written once the database is back: the run is over, with why it failed
    const run = await waitForRun(t.app, admin.headers, runId, 30_000);
    expect(run.status).toBe('failed');
    expect(run.finished_at).not.toBeNull();
    expect(run.error).toBeTruthy();
    // and a new refresh can start (none is "in progress" any more)
    const again = await t.app.inject({
      method: 'POST',
      url: '/admin/jobs/refresh-metrics',
      headers: admin.headers,
    });
    expect(again.statusCode).toBe(202);
    const second = await waitForRun(t.app, admin.headers, again.json<{ run_id: string }>().run_id, 30_000);
    expect(second.status).toBe('completed');
  });
});
