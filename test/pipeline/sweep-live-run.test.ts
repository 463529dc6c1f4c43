import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import type { Database } from '../../src/infrastructure/db/client.js';
import { scraperRuns } from '../../src/infrastructure/db/schema/index.js';
import {
  DrizzleArticleStates,
  SENDING_GRACE_SECONDS,
} from '../../src/infrastructure/db/repositories/article-states.repository.js';
import { RUN_STALE_AFTER_MS } from '../../src/domain/runs.js';

/**
 * The sweep gives every unfinished article a job, but not one that a live run has just stored: that
 * run's process sends its job itself, with the run's trace context (a worker that started in the
 * middle of a run took such articles first, and their article.pipeline spans began traces of their
 * own). An article that has waited past the grace period, or whose run is stale or closed, is swept.
 */
describe.each(dbKinds())('the sweep and a live run (%s)', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database?.close());

  it('leaves a live run the articles it has just stored, and sweeps every other unfinished one', async () => {
    const { db } = database;
    const topic = await makeTopic(db);
    const now = Date.now();
    const run = async (status: 'running' | 'interrupted', heartbeatAgoMs: number) =>
      (
        await db
          .insert(scraperRuns)
          .values({ status, correlationId: 'sweep', heartbeatAt: new Date(now - heartbeatAgoMs) })
          .returning()
      )[0]!.id;
    const live = await run('running', 1000);
    const stale = await run('running', RUN_STALE_AFTER_MS + 60_000);
    const closed = await run('interrupted', 1000);
    const article = async (title: string, runId: string | null, scrapedAgoMs: number, status = 'new') =>
      (
        await makeArticle(db, {
          title,
          topicId: topic.id,
          runId,
          scrapedAt: new Date(now - scrapedAgoMs),
          processingStatus: status as 'new',
        })
      ).id;
    const justStored = await article('just stored by a live run', live, 0);
    const analysed = await article('analysed, of a live run', live, 2000, 'analyzed');
    const waited = await article('waited past the grace', live, (SENDING_GRACE_SECONDS + 30) * 1000);
    const ofStale = await article('of a run whose process is gone', stale, 0);
    const ofClosed = await article('of an interrupted run', closed, 0);
    const noRun = await article('of no run', null, 0);
    const done = await article('completed', null, 0, 'completed');

    const swept = new Set((await new DrizzleArticleStates(db).unfinished(100)).map((a) => a.articleId));
    expect(swept).toEqual(new Set([waited, ofStale, ofClosed, noRun]));
    for (const id of [justStored, analysed, done]) expect(swept.has(id)).toBe(false);
  });
});
