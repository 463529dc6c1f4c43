import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { createTestDatabase } from '../helpers/db.js';

const count = async (db: Awaited<ReturnType<typeof createTestDatabase>>, table: string) =>
  rowsOf<{ n: number }>(await db.db.execute(sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n;

/**
 * The tests' PGlite databases are leases on reused instances (test/helpers/pglite-pool.ts): each
 * must be as fresh as a new one, and a closed one must stay closed.
 */
describe('PGlite test databases on reused instances', () => {
  it('start empty but for the seed rows, whatever the previous one wrote', async () => {
    const first = await createTestDatabase('pglite');
    const seeded = await count(first, 'metric_definitions');
    expect(seeded).toBeGreaterThan(0);
    const instance = first.pglite!.Module;
    // a few rows (emptied by DELETE), a seed row gone, a setting changed
    await first.db.execute(sql`insert into topics (name, slug) values ('Pool', 'pool')`);
    await first.db.execute(sql`delete from metric_definitions`);
    await first.db.execute(sql`set statement_timeout = 1234`);
    await first.close();

    const second = await createTestDatabase('pglite');
    // the same instance, handed on (the pool keeps the last one given back)
    expect(second.pglite!.Module).toBe(instance);
    expect(await count(second, 'topics')).toBe(0);
    expect(await count(second, 'metric_definitions')).toBe(seeded);
    const timeout = rowsOf<{ statement_timeout: string }>(
      await second.db.execute(sql`show statement_timeout`),
    );
    expect(timeout[0]!.statement_timeout).toBe('0');
    // a large table (emptied by TRUNCATE)
    await second.db.execute(
      sql`insert into topics (name, slug) select 'T' || i, 't-' || i from generate_series(1, 2000) i`,
    );
    await second.close();

    const third = await createTestDatabase('pglite');
    expect(third.pglite!.Module).toBe(instance);
    expect(await count(third, 'topics')).toBe(0);
    await third.close();
  });

  it('a closed one refuses every use, and nothing it left running reaches the next one', async () => {
    const first = await createTestDatabase('pglite');
    let heard = 0;
    await first.listen('pool_test', () => heard++);
    first.pglite!.onNotification(() => heard++);
    await first.close();
    expect(first.pglite!.closed).toBe(true);
    await expect(first.db.execute(sql`select 1`)).rejects.toThrow();
    await expect(
      first.db.execute(sql`insert into topics (name, slug) values ('Late', 'late')`),
    ).rejects.toThrow();

    const second = await createTestDatabase('pglite');
    // the next one listens on the same channel: only its own listener hears
    let heardHere = 0;
    await second.listen('pool_test', () => heardHere++);
    await second.db.execute(sql`select pg_notify('pool_test', 'x')`);
    await expect.poll(() => heardHere).toBe(1);
    expect(heard).toBe(0);
    expect(await count(second, 'topics')).toBe(0);
    await second.close();
  });

  it('one whose schema a test changed is not handed out again', async () => {
    const first = await createTestDatabase('pglite');
    const instance = first.pglite!.Module;
    await first.db.execute(sql`create index pool_test_idx on topics (name)`);
    await first.close();
    const second = await createTestDatabase('pglite');
    expect(second.pglite!.Module).not.toBe(instance);
    const indexes = rowsOf<{ n: number }>(
      await second.db.execute(
        sql`select count(*)::int as n from pg_indexes where indexname = 'pool_test_idx'`,
      ),
    );
    expect(indexes[0]!.n).toBe(0);
    await second.close();
  });
});
