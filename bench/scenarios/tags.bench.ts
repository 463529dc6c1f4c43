/**
 * The admin tags table (issue 18, deliverable 4) at 5,000 tags and 100,000 article-tag links in one
 * topic, on PostgreSQL, through the real api: p50/p99 of the first page for every sort, a search
 * and a deep page. Budget: p99 <= 100 ms each, 150 ms for the article-count sort (it counts the
 * links of every tag of the topic, 100,000 here, for each page). Every query is timed in ROUNDS
 * rounds (the queries in turns within a round; only the first warms up), and each figure is the
 * median of the rounds' p99 (bench/types.ts `Rounds`). See docs/performance.md.
 */
import { sql } from 'drizzle-orm';
import type { BenchContext, BenchResult, Scenario } from '../types.js';
import { MemoryCache } from '../../src/composition/bench-entry.js';
import { createBenchDatabase, makeTopics, percentile, round } from '../articles/bench-db.js';
import { closeAgent, httpGet, startBenchApp } from '../articles/bench-app.js';
import { seedTagsAtScale } from '../support/tag-seed.js';
import { median, notRun, roundsOf } from '../rounds.js';

const ROUNDS = 3;
const P99_MS = 100;
const P99_COUNT_SORT_MS = 150;

const QUERIES = {
  name: 'sort=name',
  group: 'sort=group',
  article_count: 'sort=article_count',
  created_at: 'sort=created_at',
  search: 'q=tag-049',
  deep_page: 'sort=name&offset=4950',
};

async function tagsScenario(ctx: BenchContext): Promise<BenchResult[]> {
  if (!ctx.databaseUrl)
    return [
      {
        scenario: 'tags.table',
        figure: NaN,
        unit: '',
        budget: 'runs',
        rounds: notRun(),
        pass: false,
        notes: 'skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL',
      },
    ];
  const requests = ctx.quick ? 50 : 300;
  const bench = await createBenchDatabase(ctx.databaseUrl, 'tags');
  const app = await startBenchApp(bench.database, bench.url, new MemoryCache());
  const results: BenchResult[] = [];
  try {
    const [topicId] = await makeTopics(bench.database, 1);
    const t0 = Date.now();
    const { links } = await seedTagsAtScale(bench.database.db, topicId!, {
      tags: 5000,
      articles: 2000,
      linksPerArticle: 50,
      groups: 12,
    });
    for (const table of ['tags', 'article_tags', 'tag_groups'])
      await bench.database.db.execute(sql.raw(`vacuum analyze ${table}`));
    const seedMs = Date.now() - t0;
    const auth = app.container.services.auth;
    await auth.ensureUser({ email: 'bench-admin@example.test', password: 'password-123', role: 'admin' });
    const session = await auth.login({ email: 'bench-admin@example.test', password: 'password-123' });
    const headers = { authorization: `Bearer ${session.access_token}` };
    const queries = Object.entries(QUERIES);
    const rounds = queries.map(() => [] as number[][]);
    for (let r = 0; r < ROUNDS; r++)
      for (const [k, [, query]] of queries.entries()) {
        const path = `/admin/tags?topic_id=${topicId}&limit=50&${query}`;
        const warmup = r === 0 ? 10 : 0;
        const times: number[] = [];
        for (let i = 0; i < requests + warmup; i++) {
          const started = performance.now();
          const status = await httpGet(app.base, path, headers);
          const ms = performance.now() - started;
          if (status !== 200) throw new Error(`GET ${path} answered ${status}`);
          if (i >= warmup) times.push(ms);
        }
        rounds[k]!.push(times);
      }
    for (const [k, [name]] of queries.entries()) {
      const o = roundsOf(
        rounds[k]!.map((times) => percentile(times, 99)),
        'figure',
      );
      const budget = name === 'article_count' ? P99_COUNT_SORT_MS : P99_MS;
      results.push({
        scenario: `tags.table.${name}`,
        figure: o.median,
        unit: 'ms p99',
        budget: `p99 <= ${budget} ms`,
        rounds: o,
        pass: o.median <= budget,
        notes: `${ROUNDS} rounds of ${requests} requests; p50 ${round(median(rounds[k]!.map((times) => percentile(times, 50))))} ms (median); 5,000 tags, ${links} links (seeded in ${seedMs} ms)`,
      });
    }
  } finally {
    closeAgent();
    await app.close();
    await bench.drop();
  }
  return results;
}

export const scenarios: Scenario[] = [{ name: 'tags.table', run: tagsScenario }];
