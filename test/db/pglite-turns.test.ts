import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/infrastructure/db/client.js';

/**
 * PGlite runs statements on the event loop, and its own queue starts a queued statement in the
 * same turn as the one before ended. A timer (a request, a health probe) must get a turn between
 * two queued statements, not only after the whole queue: twenty statements of 30 ms each, queued
 * at once, take ~600 ms, and no gap between two timer callbacks may be near that.
 */
describe('PGlite statements and the event loop', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://', migrate: false });
  });
  afterAll(() => database.close());

  it('gives timers a turn between queued statements', async () => {
    let last = performance.now();
    let longest = 0;
    let ticks = 0;
    let running = true;
    const tick = () => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      ticks++;
      if (running) setTimeout(tick, 1);
    };
    setTimeout(tick, 1);
    const started = performance.now();
    await Promise.all(Array.from({ length: 20 }, () => database.db.execute(sql`select pg_sleep(0.03)`)));
    running = false;
    const total = performance.now() - started;
    longest = Math.max(longest, performance.now() - last);
    expect(total).toBeGreaterThan(550);
    // one statement (30 ms) plus scheduling noise on a busy machine, never the queue's 600 ms
    expect(longest).toBeLessThan(200);
    expect(ticks).toBeGreaterThanOrEqual(10);
  });

  it('still runs a transaction and its statements in order', async () => {
    const rows = await database.db.transaction(async (tx) => {
      await tx.execute(sql`create temporary table turns (n int) on commit drop`);
      for (let i = 0; i < 5; i++) await tx.execute(sql`insert into turns values (${i})`);
      return tx.execute(sql`select array_agg(n order by n) as ns from turns`);
    });
    expect((rows as unknown as { rows: { ns: number[] }[] }).rows[0]!.ns).toEqual([0, 1, 2, 3, 4]);
  });
});
