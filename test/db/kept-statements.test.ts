/**
 * Named statements for the articles list (kept-statements.ts): on PostgreSQL a statement is parsed
 * once per connection and planned with each execution's values; a connection that lost its named
 * statements (as behind a transaction-mode PgBouncer) gets the statement again unnamed; at most
 * MAX_KEPT texts are named. On PGlite the statement simply runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type Database } from '../../src/infrastructure/db/client.js';
import {
  MAX_KEPT,
  executeKept,
  keptStatements,
  resetKeptStatements,
} from '../../src/infrastructure/db/kept-statements.js';
import { createTestDatabase } from '../helpers/db.js';

/** the named statements of the connection that runs this, with how each was planned */
const probe = (tag: string) =>
  sql`select name, custom_plans::int as custom, generic_plans::int as generic,
             current_setting('plan_cache_mode') as mode
        from pg_prepared_statements where statement like ${`%kept probe ${tag}%`} and name like 'kept%'
        -- kept probe ${sql.raw(tag)}`;

interface ProbeRow {
  name: string;
  custom: number;
  generic: number;
  mode: string;
}

describe('executeKept on PGlite', () => {
  it('runs the statement as it is', async () => {
    const database = await createTestDatabase('pglite');
    try {
      const before = keptStatements().named;
      const rows = rowsOf<{ n: number }>(await executeKept(database.db, sql`select ${41}::int + 1 as n`));
      expect(rows).toEqual([{ n: 42 }]);
      expect(keptStatements().named).toBe(before);
    } finally {
      await database.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('executeKept on PostgreSQL', () => {
  let database: Database;
  /** one connection: what one statement leaves on it is what the next one finds */
  let single: Database;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    single = await openDatabase({ databaseUrl: database.connectionString!, poolSize: 1, migrate: false });
  });
  afterAll(async () => {
    // the test files after this one in its worker name statements again
    resetKeptStatements();
    await single?.close();
    await database?.close();
  });

  it('parses a statement once per connection and plans each execution with its values', async () => {
    const runs: ProbeRow[][] = [];
    for (let i = 0; i < 8; i++) runs.push(rowsOf<ProbeRow>(await executeKept(single.db, probe('a'))));
    // the statement finds itself among the connection's named statements, under one name
    expect(runs.every((r) => r.length === 1 && r[0]!.name === runs[0]![0]!.name)).toBe(true);
    expect(runs[0]![0]!.name).toMatch(/^kept_/);
    const last = runs.at(-1)![0]!;
    expect(last.mode).toBe('force_custom_plan');
    // past PostgreSQL's five custom plans, still no generic one
    expect(last.generic).toBe(0);
    expect(last.custom).toBe(8);
    // the same statement sent plainly is not named
    expect(rowsOf<ProbeRow>(await single.db.execute(probe('a')))).toHaveLength(1);
  });

  it('names at most MAX_KEPT texts, and every one answers', async () => {
    // from none: the files before this one in its worker may have named some
    resetKeptStatements();
    for (let i = 0; keptStatements().named < MAX_KEPT + 2 && i < MAX_KEPT + 2; i++) {
      const rows = rowsOf<{ n: number }>(
        await executeKept(database.db, sql`select ${i}::int as n -- kept cap ${sql.raw(String(i))}`),
      );
      expect(rows).toEqual([{ n: i }]);
    }
    expect(keptStatements().named).toBe(MAX_KEPT);
    // past the cap a new text runs unnamed
    const rows = rowsOf<ProbeRow>(await executeKept(single.db, probe('past the cap')));
    expect(rows).toEqual([]);
  });

  // last: the fallback stops naming statements in this process
  it('sends a statement again unnamed when the connection lost it, and stops naming', async () => {
    // names given again (the cap above was reached); the connection still holds the first one
    resetKeptStatements();
    const first = rowsOf<ProbeRow>(await executeKept(single.db, probe('a')));
    expect(first).toHaveLength(1);
    expect(keptStatements().naming).toBe(true);
    // what a pooler that hands the next transaction another server connection looks like
    await single.db.execute(sql`deallocate all`);
    const again = rowsOf<ProbeRow>(await executeKept(single.db, probe('a')));
    expect(again).toEqual([]);
    expect(keptStatements().naming).toBe(false);
    expect(rowsOf<ProbeRow>(await executeKept(single.db, probe('a')))).toEqual([]);
  });
});
