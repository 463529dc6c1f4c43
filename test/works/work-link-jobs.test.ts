import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { WORK_ARRIVALS_JOB } from '../../src/application/works/work-link-jobs.js';

const STORY = Array.from(
  { length: 60 },
  (_, i) => `Sentence ${i} of the flood report names river ${i % 7} and the town of Example${i}.`,
).join(' ');

/** The durable path: the tick queues what arrived, the `work.link` worker links it. */
describe.each(dbKinds())('work.link jobs (%s)', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ db });
  });
  afterAll(() => t.close());

  it('the tick queues final articles never linked, and the worker joins the copies', async () => {
    const d = t.container.database.db;
    const topicId = (await makeTopic(d)).id;
    const now = new Date();
    const a = await makeArticle(d, {
      topicId,
      content: STORY,
      processingStatus: 'completed',
      publishedAt: now,
    });
    const b = await makeArticle(d, {
      topicId,
      title: 'Another headline for the same wire story',
      content: STORY,
      processingStatus: 'completed',
      publishedAt: now,
    });
    // not final yet: left for a later tick
    const pending = await makeArticle(d, {
      topicId,
      content: STORY,
      processingStatus: 'new',
      publishedAt: now,
    });

    const worker = t.container.workers.find((w) => w.name === 'work-link')!;
    await worker.ready!();
    const tick = t.container.jobs.find((j) => j.name === WORK_ARRIVALS_JOB)!;
    expect(await tick.run()).toEqual({ queued: 2 });

    const workOf = async (id: string) =>
      rowsOf<{ w: string }>(
        await d.execute(sql`select coalesce(work_id, id) as w from articles where id = ${id}`),
      )[0]!.w;
    for (let i = 0; i < 200 && (await workOf(a.id)) === a.id; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await workOf(b.id)).toBe(await workOf(a.id));
    expect(await workOf(a.id)).not.toBe(a.id);
    expect(await workOf(pending.id)).toBe(pending.id);
    // linked articles are not queued again
    for (let i = 0; i < 100; i++) {
      const [n] = rowsOf<{ n: number }>(
        await d.execute(sql`select count(*)::int as n from work_fingerprints`),
      );
      if (n!.n >= 2) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await tick.run()).toEqual({ queued: 0 });
  });
});
