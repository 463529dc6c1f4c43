import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { ARTICLE_QUEUE } from '../../src/application/pipeline/article-jobs.js';
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

interface DeadItem {
  article_id: string;
  run_id: string;
  url: string;
  stage: string;
  error: string;
  attempts: number;
}

/**
 * Article stages as durable jobs: a transient model failure is retried with backoff and the article
 * completes; a permanent one, or retries running out, leaves the article failed with its reason and
 * the job in the dead-letter queue admins list; a job run again changes nothing.
 */
describe.each(dbKinds())('article jobs (%s)', (db) => {
  let t: TestApp;
  let llm: OpenAiPeer;
  let feeds: HttpPeer;
  const analysisCalls = new Map<string, number>();
  const flaky = makeItem({ title: 'Flaky model for this article at first' });
  const down = makeItem({ title: 'Model always unavailable for this article' });
  const refused = makeItem({ title: 'Model refuses this article for good' });
  const fine = [makeItem(), makeItem()];

  beforeAll(async () => {
    llm = await new OpenAiPeer((call) => {
      const user = call.messages[1]?.content ?? '';
      const translation = isTranslationCall(call);
      const key = [flaky, down, refused].find((i) => user.includes(i.title))?.title;
      if (key && !translation) {
        const n = (analysisCalls.get(key) ?? 0) + 1;
        analysisCalls.set(key, n);
        // the SDK tries each call 3 times: the first attempt of the job fails as a whole
        if (key === flaky.title && n <= 3) return { status: 503, body: { error: { message: 'overloaded' } } };
        if (key === down.title) return { status: 503, body: { error: { message: 'model is down' } } };
        if (key === refused.title) return { status: 400, body: { error: { message: 'refused for good' } } };
      }
      return modelReply(call);
    }).start();
    feeds = await startFeedServer({ '/feed.xml': rssFeed([flaky, down, refused, ...fine]) });
    t = await buildTestApp({ db, env: { JOB_RETRY_LIMIT: '1', JOB_RETRY_DELAY_SECONDS: '1' } });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([llm?.stop(), feeds?.stop()]);
  });

  const articles = async () =>
    rowsOf<{
      id: string;
      url: string;
      summary: string | null;
      processing_status: string;
      processing_error: string | null;
      updated_at: string;
    }>(
      await t.container.database.db.execute(
        sql`select id, url, summary, processing_status, processing_error, updated_at::text from articles`,
      ),
    );

  it('retries transient failures with backoff, dead-letters what fails for good, and lists it to admins', async () => {
    const admin = await t.login('admin');
    await seedPipeline(t.app, admin.headers, {
      sources: [{ name: 'Feed', url: `${feeds.url}/feed.xml` }],
      providerBaseUrl: llm.baseUrl,
    });
    const run = await t.container.services.scraper.runNow('cli');
    expect(run.status).toBe('completed');
    expect(run.counts).toMatchObject({ published: 5, analyzed: 3, translated: 3, analysis_failed: 2 });

    const rows = await articles();
    const byUrl = new Map(rows.map((r) => [r.url, r]));
    // the flaky article's first job attempt failed (3 calls), the second went through
    expect(analysisCalls.get(flaky.title)).toBe(4);
    expect(byUrl.get(flaky.url)).toMatchObject({ processing_status: 'completed', processing_error: null });
    expect(byUrl.get(flaky.url)!.summary).toBe('A model summary of the article.');
    // retries ran out: two attempts of three calls each, then the failure is final
    expect(analysisCalls.get(down.title)).toBe(6);
    expect(byUrl.get(down.url)).toMatchObject({ processing_status: 'analysis_failed' });
    expect(byUrl.get(down.url)!.processing_error).toContain('model is down');
    // a refusal is not retried
    expect(analysisCalls.get(refused.title)).toBe(1);
    expect(byUrl.get(refused.url)).toMatchObject({ processing_status: 'analysis_failed' });
    for (const f of fine) expect(byUrl.get(f.url)).toMatchObject({ processing_status: 'completed' });

    // the run ends inside its last job, and the queue files that job's dead letter as the job
    // settles, a moment after: the list is read until it has both (it never has more)
    const readDead = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/admin/jobs/dead', headers: admin.headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ items: DeadItem[]; total: number }>();
    };
    await expect.poll(async () => (await readDead()).total, { timeout: 10_000 }).toBe(2);
    const body = await readDead();
    expect(body.total).toBe(2);
    const deadBy = new Map(body.items.map((i) => [i.url, i]));
    expect(deadBy.get(down.url)).toMatchObject({
      article_id: byUrl.get(down.url)!.id,
      run_id: run.id,
      stage: 'analysis',
      attempts: 2,
    });
    expect(deadBy.get(down.url)!.error).toContain('model is down');
    expect(deadBy.get(refused.url)).toMatchObject({ stage: 'analysis', attempts: 1 });
    expect(deadBy.get(refused.url)!.error).toContain('refused for good');

    const user = await t.login('user');
    const forbidden = await t.app.inject({ method: 'GET', url: '/admin/jobs/dead', headers: user.headers });
    expect(forbidden.statusCode).toBe(403);
  }, 90_000);

  it('a job run again for a finished article changes nothing', async () => {
    const before = await articles();
    const calls = llm.chatCalls.length;
    const done = before.find((r) => r.processing_status === 'completed')!;
    const sent = await t.container.queue.send(ARTICLE_QUEUE, [
      {
        key: done.id,
        data: { articleId: done.id, runId: '', topicId: '', url: done.url, source: 'Feed' },
      },
    ]);
    expect(sent).toBe(1);
    // the job is taken and completed by this process's worker
    let state = '';
    for (let i = 0; i < 100 && state !== 'completed'; i++) {
      const [job] = rowsOf<{ state: string }>(
        await t.container.database.db.execute(
          sql`select state from pgboss.job where name = ${ARTICLE_QUEUE} and singleton_key = ${done.id}
              order by created_on desc limit 1`,
        ),
      );
      state = job?.state ?? '';
      if (state !== 'completed') await new Promise((r) => setTimeout(r, 100));
    }
    expect(state).toBe('completed');
    expect(llm.chatCalls.length).toBe(calls);
    expect(await articles()).toEqual(before);
  }, 30_000);
});
