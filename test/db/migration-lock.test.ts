import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../../src/infrastructure/db/client.js';
import { createScratchDatabase } from '../helpers/scratch-database.js';

const adminUrl = process.env.TEST_DATABASE_URL;

describe.runIf(adminUrl)('migrations on PostgreSQL', () => {
  it('processes starting at once on a new database take turns and all come up', async () => {
    const scratch = await createScratchDatabase(adminUrl!, 'mig');
    try {
      const opened = await Promise.allSettled(
        Array.from({ length: 4 }, () => openDatabase({ databaseUrl: scratch.url, poolSize: 2 })),
      );
      const failures = opened.filter((r) => r.status === 'rejected');
      expect(failures).toEqual([]);
      const databases = opened.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const applied = rowsOf<{ n: number }>(
        await databases[0]!.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
      );
      const journal = (await import('../../migrations/meta/_journal.json', { with: { type: 'json' } }))
        .default as { entries: unknown[] };
      expect(applied[0]!.n).toBe(journal.entries.length);
      await Promise.all(databases.map((d) => d.close()));
    } finally {
      await scratch.drop();
    }
  });
});
