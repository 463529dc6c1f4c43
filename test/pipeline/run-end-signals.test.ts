/**
 * A run's own process hears of an end another process wrote (LISTEN/NOTIFY on the run record's
 * write), instead of reading the record again and again: the waiters below have no timer at all, so
 * only the word can wake them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { pino } from 'pino';
import { RunWaiters } from '../../src/application/pipeline/run-end.js';
import { openDatabase, type Database } from '../../src/infrastructure/db/client.js';
import {
  DrizzleRunRepository,
  runEndSignals,
} from '../../src/infrastructure/db/repositories/run.repository.js';
import { createTestDatabase, dbKinds } from '../helpers/db.js';

const logger = pino({ level: 'silent' });
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** resolves with the value, or with 'nothing' when it has not come within `ms` */
const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<'nothing'>((r) => setTimeout(() => r('nothing'), ms))]);

describe.each(dbKinds())('word of a run written elsewhere (%s)', (kind) => {
  it('nudges the run’s waiters when its end is written, and only that run’s', async () => {
    const database = await createTestDatabase(kind);
    cleanups.push(() => database.close());
    const waiters = new RunWaiters({ signals: runEndSignals(database), logger });
    cleanups.push(() => waiters.close());
    const runs = new DrizzleRunRepository(database.db);
    const mine = await runs.create({ trigger: 'cli', correlationId: 'mine' });
    const other = await runs.create({ trigger: 'cli', correlationId: 'other', kind: 'metrics' });

    const watch = waiters.watch(mine.id);
    cleanups.push(async () => watch.stop());
    expect(await waiters.listen()).toBe(true);
    const next = watch.next();
    await runs.finish(other.id, { status: 'completed', counts: {}, error: null });
    expect(await within(next, 300)).toBe('nothing');
    await runs.finish(mine.id, { status: 'completed', counts: { published: 0 }, error: null });
    // null: read the record (the word carries no end, the record does)
    expect(await within(next, 10_000)).toBeNull();
    expect((await runs.get(mine.id))?.status).toBe('completed');
    // an end written in this process comes with the end itself
    waiters.wake(mine.id, { status: 'completed', counts: { published: 0 }, error: null });
    expect(await watch.next()).toMatchObject({ status: 'completed' });
  });

  it('a waiter of a store that cannot listen is told to read the record instead', async () => {
    const waiters = new RunWaiters({
      signals: { listen: () => Promise.reject(new Error('no LISTEN here')) },
      logger,
    });
    expect(await waiters.listen()).toBe(false);
    expect(await new RunWaiters().listen()).toBe(false);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('word between processes on PostgreSQL', () => {
  let a: Database;
  let b: Database;

  it('an end written on another connection reaches this process; a lost listener listens again and says word may be missing', async () => {
    a = await createTestDatabase('postgres');
    cleanups.push(() => a.close());
    b = await openDatabase({ databaseUrl: a.connectionString!, poolSize: 2, migrate: false });
    cleanups.push(() => b.close());
    const heard: (string | null)[] = [];
    let hear: () => void = () => undefined;
    const stop = await a.listen('run_finished', (id) => {
      heard.push(id);
      hear();
    });
    cleanups.push(stop);
    const nextWord = () => new Promise<void>((r) => (hear = r));

    // the other process (its own pool) finishes a run
    const runs = new DrizzleRunRepository(b.db);
    const run = await runs.create({ trigger: 'cli', correlationId: 'elsewhere' });
    let word = nextWord();
    await runs.finish(run.id, { status: 'failed', counts: {}, error: 'stopped' });
    await within(word, 10_000);
    expect(heard).toEqual([run.id]);

    // the listening connection is killed: it comes back and says so
    const admin = new pg.Client({ connectionString: a.connectionString });
    await admin.connect();
    cleanups.push(() => admin.end());
    word = nextWord();
    const killed = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = 'listen run_finished'`,
    );
    expect(killed.rowCount).toBe(1);
    await within(word, 10_000);
    expect(heard).toEqual([run.id, null]);
    // and hears again
    const later = await runs.create({ trigger: 'cli', correlationId: 'later' });
    word = nextWord();
    await runs.finish(later.id, { status: 'completed', counts: {}, error: null });
    await within(word, 10_000);
    expect(heard).toEqual([run.id, null, later.id]);
  }, 30_000);
});
