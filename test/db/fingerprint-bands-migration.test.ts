import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_DIR, PGLITE_EXTENSIONS } from '../../src/infrastructure/db/client.js';

/**
 * Migration 0013 on a database that already holds fingerprints: the bucket keys stored a row each
 * move onto their fingerprint's row in band order, and a lookup by key finds the article after.
 */
describe('migration 0013_work_fingerprint_bands on existing data', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mig-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('carries every stored bucket key over, in band order', async () => {
    const before = join(dir, 'before');
    cpSync(MIGRATIONS_DIR, before, { recursive: true });
    const journalFile = join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === '0013_work_fingerprint_bands');
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    writeFileSync(journalFile, JSON.stringify(journal));

    const client = await PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS });
    try {
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: before });
      const a1 = '00000000-0000-4000-8000-000000000001';
      const a2 = '00000000-0000-4000-8000-000000000002';
      await client.exec(`
        insert into topics (id, name, slug) values ('00000000-0000-4000-8000-0000000000a1', 'A', 'a');
        insert into articles (id, topic_id, source, url, canonical_url, title, normalized_title) values
          ('${a1}', '00000000-0000-4000-8000-0000000000a1', 'S', 'https://x.example/1', 'https://x.example/1', 'One', 'one'),
          ('${a2}', '00000000-0000-4000-8000-0000000000a1', 'S', 'https://x.example/2', 'https://x.example/2', 'Two', 'two');
        insert into work_fingerprints (article_id, at, shingles, signature) values
          ('${a1}', '2026-01-01T00:00:00Z', 40, 'AAAA'), ('${a2}', '2026-01-01T00:00:00Z', 0, null);
        -- stored out of band order, with a negative key
        insert into work_text_bands (band, key, article_id, at) values
          (2, 30, '${a1}', '2026-01-01T00:00:00Z'), (0, -10, '${a1}', '2026-01-01T00:00:00Z'),
          (1, 20, '${a1}', '2026-01-01T00:00:00Z');`);

      await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
      const rows = await client.query<{ article_id: string; bands: number[] | null }>(
        'select article_id, bands from work_fingerprints order by article_id',
      );
      expect(rows.rows).toEqual([
        { article_id: a1, bands: [-10, 20, 30] },
        { article_id: a2, bands: null },
      ]);
      const found = await client.query<{ article_id: string }>(
        `select article_id from work_fingerprints where bands && '{20,99}'::int[]`,
      );
      expect(found.rows).toEqual([{ article_id: a1 }]);
      const gone = await client.query<{ n: number }>(
        `select count(*)::int as n from information_schema.tables where table_name = 'work_text_bands'`,
      );
      expect(gone.rows[0]!.n).toBe(0);
    } finally {
      await client.close();
    }
  });
});
