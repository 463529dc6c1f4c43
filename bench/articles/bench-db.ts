import { sql } from 'drizzle-orm';
import { openDatabase, type Database, seedDatabase } from '../../src/composition/bench-entry.js';
import { createScratchDatabase } from '../support/scratch-database.js';

export interface BenchDatabase {
  database: Database;
  url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own on the bench server, dropped afterwards. */
export async function createBenchDatabase(adminUrl: string, tag: string): Promise<BenchDatabase> {
  const scratch = await createScratchDatabase(adminUrl, `bench_${tag}`);
  const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 10 });
  await seedDatabase(database.db);
  return {
    database,
    url: scratch.url,
    async drop() {
      await database.close();
      await scratch.drop();
    },
  };
}

/**
 * Articles numbered from..to (generate_series), spread over `topics`: 60% carry a citation_count
 * (0..4999, so ties are common), two thirds have been viewed (a view count row), one in seven has no publication date.
 */
export async function generateArticles(database: Database, from: number, to: number, topics: string[]) {
  const db = database.db;
  const topicArray = `{${topics.join(',')}}`;
  const step = 100_000;
  for (let lo = from; lo <= to; lo += step) {
    const hi = Math.min(to, lo + step - 1);
    await db.execute(sql`
      with ins as (
        insert into articles (topic_id, source, url, canonical_url, title, normalized_title, summary,
                              published_at, scraped_at)
        select (${topicArray}::uuid[])[1 + g % ${topics.length}], 'Source ' || (g % 40),
               'https://bench.example.test/a/' || g, 'https://bench.example.test/a/' || g,
               'Article ' || g, 'article ' || g, 'Summary of article ' || g,
               case when g % 7 = 0 then null else timestamptz '2020-01-01' + g * interval '1 minute' end,
               timestamptz '2020-01-01' + g * interval '1 minute'
        from generate_series(${lo}::int, ${hi}::int) g
        returning id, split_part(url, '/a/', 2)::int as n),
      views as (
        insert into article_view_counts (article_id, view_count)
        select id, (n::bigint * 7919) % 100000 from ins where n % 3 <> 0)
      insert into article_metrics (article_id, metric_key, value, source)
      select id, 'citation_count', (n::bigint * 104729) % 5000, 'bench' from ins where n % 10 < 6`);
  }
  for (const table of ['articles', 'article_metrics', 'article_view_counts'])
    await db.execute(sql.raw(`vacuum analyze ${table}`));
}

export async function makeTopics(database: Database, n: number): Promise<string[]> {
  const rows = await database.db.execute(
    sql`insert into topics (name, slug) select 'Bench ' || g, 'bench-' || g from generate_series(1, ${n}) g returning id`,
  );
  return (rows as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

export const round = (x: number, digits = 2) => Number(x.toFixed(digits));
