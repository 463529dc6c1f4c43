import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobQueue } from '../../src/application/jobs/job-queue.ports.js';
import type { Database } from '../../src/infrastructure/db/client.js';
import { AdvisoryJobLock } from '../../src/infrastructure/db/advisory-lock.js';
import { PgBossJobQueue } from '../../src/infrastructure/queue/pg-boss-queue.js';
import { requestTick, Scheduler, scheduledJob } from '../../src/jobs/scheduler.js';
import { captureStream } from '../helpers/capture-stream.js';
import { createTestDatabase } from '../helpers/db.js';

/** A job queue on a PGlite database of its own for the describe block, stopped after it. */
function queueOnPglite(opts: { pollingIntervalSeconds?: number } = {}) {
  const logger = pino({ level: 'silent' });
  const fixture = {} as { database: Database; queue: PgBossJobQueue; logger: typeof logger };
  beforeAll(async () => {
    fixture.database = await createTestDatabase();
    fixture.queue = new PgBossJobQueue(fixture.database, logger, opts);
    fixture.logger = logger;
  });
  afterAll(async () => {
    await fixture.queue?.stop(1000);
    await fixture.database?.close();
  });
  return fixture;
}

/**
 * A job that ticks every minute (citation arrivals) wrote `scheduler.job_completed` at info every
 * minute of an idle service; a tick that did nothing is now logged at debug, one that did work at
 * info. The ticks are run by hand (the queue's cron fires once a minute at best), through the real
 * advisory lock on PGlite.
 */
describe('scheduler log lines', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('logs a tick that did nothing at debug and one that did work at info', async () => {
    const ticks = new Map<string, () => Promise<void>>();
    const queue = {
      schedule: (name: string, _cron: string, run: () => Promise<void>) => {
        ticks.set(name, run);
        return Promise.resolve();
      },
    } as unknown as JobQueue;
    const results = [{ articles: 0 }, { articles: 3 }];
    const job = scheduledJob({
      name: 'arrivals',
      cron: '* * * * *',
      run: () => Promise.resolve(results.shift()!),
      idle: (r) => r.articles === 0,
    });
    const { s, out } = captureStream(false);
    const logger = pino({ level: 'debug' }, s);
    await new Scheduler([job], new AdvisoryJobLock(database), queue, logger).start();
    const tick = ticks.get('cron.arrivals')!;
    await tick();
    await tick();
    const lines = out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; level: number })
      .filter((l) => l.event === 'scheduler.job_completed')
      .map((l) => l.level);
    // pino levels: 20 debug, 30 info
    expect(lines).toEqual([20, 30]);
  });
});

/**
 * A tick asked for now (a run stored new articles: their citations are looked up at once, not at
 * the next minute) goes through the real queue on PGlite to the worker of the job's schedule, and
 * asking while one tick waits adds no second one. A schedule that never fires in the test (once a
 * year) shows that the ticks came from the requests.
 */
describe('a tick asked for now', () => {
  const q = queueOnPglite({ pollingIntervalSeconds: 1 });

  it("runs the job through its schedule's queue within seconds, one waiting tick at most", async () => {
    const { database, queue, logger } = q;
    // before any worker scheduled the job its queue does not exist: the request is dropped quietly
    await expect(requestTick(queue, 'yearly', logger)).resolves.toBeUndefined();
    let runs = 0;
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const job = scheduledJob({
      name: 'yearly',
      cron: '0 0 1 1 *',
      run: async () => {
        runs++;
        if (runs === 1) await held;
        return {};
      },
    });
    await new Scheduler([job], new AdvisoryJobLock(database), queue, logger).start();
    await requestTick(queue, 'yearly', logger);
    await expect.poll(() => runs, { timeout: 15_000 }).toBe(1);
    // the first tick runs: two more requests leave one tick waiting, not two
    await requestTick(queue, 'yearly', logger);
    await requestTick(queue, 'yearly', logger);
    release();
    await expect.poll(() => runs, { timeout: 15_000 }).toBe(2);
    await new Promise((r) => setTimeout(r, 3000));
    expect(runs).toBe(2);
  }, 60_000);
});

/**
 * pg-boss reads the schedules every `cronMonitorIntervalSeconds` (30 by default) and the worker
 * roles make theirs after the queue has started, so a schedule's first tick came 30-36 s after
 * start and any tick up to ~35 s after its time. Read every 5 s, a schedule made after start fires
 * within seconds (the bound here leaves room for a busy machine; at 30 s it cannot be met).
 */
describe('a schedule made after the queue started', () => {
  const q = queueOnPglite();

  it('fires within seconds of its time, not at the next half-minute check', async () => {
    const { database, queue, logger } = q;
    const ran: number[] = [];
    const job = scheduledJob({
      name: 'every-second',
      cron: '* * * * * *',
      run: () => {
        ran.push(Date.now());
        return Promise.resolve({});
      },
    });
    const scheduled = Date.now();
    await new Scheduler([job], new AdvisoryJobLock(database), queue, logger).start();
    await expect.poll(() => ran.length, { timeout: 20_000, interval: 250 }).toBeGreaterThan(0);
    expect(ran[0]! - scheduled).toBeLessThan(20_000);
  }, 60_000);
});
