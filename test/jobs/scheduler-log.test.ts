import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobQueue } from '../../src/application/jobs/job-queue.ports.js';
import type { Database } from '../../src/infrastructure/db/client.js';
import { AdvisoryJobLock } from '../../src/infrastructure/db/advisory-lock.js';
import { Scheduler, scheduledJob } from '../../src/jobs/scheduler.js';
import { captureStream } from '../helpers/capture-stream.js';
import { createTestDatabase } from '../helpers/db.js';

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
