import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_DIR, PGLITE_EXTENSIONS } from '../../src/infrastructure/db/client.js';

/**
 * The article_topics migration on a database that already holds articles: every article is linked
 * to its own topic and source, and the articles inserted afterwards are linked by the trigger.
 */
describe('migration 0001_article_topics on existing data', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mig-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fills the link table from articles.topic_id / source_id', async () => {
    // the chain as it was before: 0000 only
    const before = join(dir, 'before');
    cpSync(MIGRATIONS_DIR, before, { recursive: true });
    const journalFile = join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((e) => e.tag === '0000_init');
    writeFileSync(journalFile, JSON.stringify(journal));

    const client = await PGlite.create('memory://', { extensions: PGLITE_EXTENSIONS });
    try {
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: before });
      await client.exec(`
        insert into topics (id, name, slug) values
          ('00000000-0000-4000-8000-0000000000a1', 'A', 'a'), ('00000000-0000-4000-8000-0000000000b2', 'B', 'b');
        insert into sources (id, topic_id, name, kind, url) values
          ('00000000-0000-4000-8000-0000000000c3', '00000000-0000-4000-8000-0000000000a1', 'S', 'rss', 'https://s.example/f');
        insert into articles (id, topic_id, source_id, source, url, canonical_url, title, normalized_title, scraped_at) values
          ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000c3',
           'S', 'https://x.example/1', 'https://x.example/1', 'One', 'one', '2026-01-01T00:00:00Z'),
          ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-0000000000b2', null,
           'T', 'https://x.example/2', 'https://x.example/2', 'Two', 'two', '2026-01-02T00:00:00Z');`);

      await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
      const links = await client.query<{
        article_id: string;
        topic_id: string;
        source_id: string | null;
        first_seen_at: Date;
      }>('select article_id, topic_id, source_id, first_seen_at from article_topics order by article_id');
      expect(links.rows).toEqual([
        {
          article_id: '00000000-0000-4000-8000-000000000001',
          topic_id: '00000000-0000-4000-8000-0000000000a1',
          source_id: '00000000-0000-4000-8000-0000000000c3',
          first_seen_at: new Date('2026-01-01T00:00:00Z'),
        },
        {
          article_id: '00000000-0000-4000-8000-000000000002',
          topic_id: '00000000-0000-4000-8000-0000000000b2',
          source_id: null,
          first_seen_at: new Date('2026-01-02T00:00:00Z'),
        },
      ]);

      await client.exec(`insert into articles (topic_id, source, url, canonical_url, title, normalized_title)
        values ('00000000-0000-4000-8000-0000000000b2', 'T', 'https://x.example/3', 'https://x.example/3', 'Three', 'three')`);
      const after = await client.query<{ n: number }>(
        `select count(*)::int as n from article_topics lt join articles a on a.id = lt.article_id
         where a.title = 'Three' and lt.topic_id = '00000000-0000-4000-8000-0000000000b2'`,
      );
      expect(after.rows[0]!.n).toBe(1);
    } finally {
      await client.close();
    }
  });
});
