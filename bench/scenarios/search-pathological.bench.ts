/**
 * search.pathological (issue 24): queries built to make the search expensive — sixteen one-letter
 * words, 200-character queries of words, of two-letter words, of websearch operators and of CJK
 * text — p99 <= 100 ms on PostgreSQL at 1M articles; and `/health` p99 <= 50 ms on PGlite
 * (3,000 articles of ~12 KB) while three clients send them without pause. Each figure is the
 * median of the rounds' p99, with the rounds' spread (bench/types.ts `Rounds`). See docs/performance.md.
 */
import { sql } from 'drizzle-orm';
import type { BenchContext, BenchResult, Scenario } from '../types.js';
import { openDatabase, seedDatabase } from '../../src/composition/bench-entry.js';
import { CJK_WORDS, VOCABULARY, generateReaderArticles } from '../articles/reader-data.js';
import { notRun, roundsOf } from '../rounds.js';
import { client, loadNote, percentile, round2, scratchDatabase, startService } from '../perf/perf-support.js';

const SEARCH_P99_MS = 100;
const HEALTH_P99_MS = 50;

const upTo200 = (words: readonly string[], sep = ' ') => {
  let q = '';
  for (let i = 0; q.length < 200; i++) q += (q ? sep : '') + words[i % words.length];
  return q.slice(0, 200);
};

/** the pathological queries, by label */
export function pathologicalQueries(): [string, string][] {
  const twoLetter = [
    'ka',
    'lo',
    'mi',
    'ne',
    'ru',
    'sa',
    'to',
    'vi',
    'pe',
    'da',
    'fo',
    'gu',
    'hi',
    'ja',
    'be',
  ];
  return [
    ['16 one-letter words', 'a b c d e f g h i j k l m n o p'],
    ['200 characters of words', upTo200(VOCABULARY.slice(300, 360))],
    ['200 characters of two-letter words', upTo200(twoLetter)],
    [
      '200 characters of operators',
      upTo200(
        VOCABULARY.slice(500, 540).map((w, i) =>
          i % 3 === 0 ? `"${w} ${w}"` : i % 3 === 1 ? `-${w}` : `${w} OR`,
        ),
      ),
    ],
    ['200 characters of CJK', upTo200(CJK_WORDS, '')],
    // two common words never side by side: the index finds every article holding both, and only
    // their positions tell (on PGlite checked among a bounded number of them)
    ['a phrase of two common words', `"${VOCABULARY[300]} ${VOCABULARY[301]}"`],
  ];
}

const path = (q: string) => `/articles?q=${encodeURIComponent(q)}&limit=20`;

async function onPostgres(ctx: BenchContext): Promise<BenchResult[]> {
  const size = ctx.quick ? 50_000 : 1_000_000;
  const rounds = ctx.quick ? 3 : 5;
  const perRound = ctx.quick ? 20 : 60;
  const scratch = await scratchDatabase(ctx.databaseUrl!, 'search');
  const service = await startService(scratch.database, scratch.url);
  const c = client();
  try {
    const t0 = Date.now();
    const topics = await scratch.database.db.execute(
      sql`insert into topics (name, slug) select 'Perf ' || g, 'perf-' || g from generate_series(1, 10) g returning id`,
    );
    const ids = (topics as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
    await generateReaderArticles(scratch.database, 1, size, ids);
    const build = Math.round((Date.now() - t0) / 1000);
    const results: BenchResult[] = [];
    for (const [label, q] of pathologicalQueries()) {
      for (let i = 0; i < 5; i++) await c.get(service.base, path(q));
      const p99s: number[] = [];
      const all: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const times: number[] = [];
        for (let i = 0; i < perRound; i++) times.push(await c.get(service.base, path(q)));
        p99s.push(percentile(times, 99));
        all.push(...times);
      }
      const o = roundsOf(p99s, 'figure');
      results.push({
        scenario: `search.pathological ${label} (PostgreSQL, ${size} articles)`,
        figure: o.median,
        unit: 'ms p99',
        budget: `p99 <= ${SEARCH_P99_MS} ms`,
        rounds: o,
        pass: o.median <= SEARCH_P99_MS,
        notes: `q=${q.slice(0, 60)}${q.length > 60 ? '…' : ''} (${q.length} chars); rounds ${rounds}×${perRound}, p99 spread ${o.min}–${o.max} ms, p50 ${round2(percentile(all, 50))} ms; build ${build} s; ${await loadNote()}`,
      });
    }
    return results;
  } finally {
    c.close();
    await service.close();
    await scratch.drop();
  }
}

/** 3,000 articles of ~12 KB of vocabulary words in a new PGlite directory */
async function pgliteCorpus(dir: string, n: number) {
  const database = await openDatabase({ dataDir: dir });
  await seedDatabase(database.db);
  const vocabulary = `{${VOCABULARY.join(',')}}`;
  await database.db.execute(sql`insert into topics (name, slug) values ('Perf', 'perf')`);
  for (let lo = 1; lo <= n; lo += 500)
    await database.db.execute(sql`
      insert into articles (topic_id, source, url, canonical_url, title, normalized_title, summary, content)
      select (select id from topics limit 1), 'Source', 'https://perf.example.test/' || g,
             'https://perf.example.test/' || g, 'Article ' || g, 'article ' || g,
             'Summary of article ' || g,
             (select string_agg(v.w[1 + ((g * 7919 + k * 104729) % 2000)], ' ')
                from generate_series(1, 1800) k, (select ${vocabulary}::text[] as w) v where g > 0)
      from generate_series(${lo}::int, ${Math.min(n, lo + 499)}::int) g`);
  await database.db.execute(sql`vacuum analyze articles`);
  return database;
}

async function onPglite(ctx: BenchContext): Promise<BenchResult> {
  const n = ctx.quick ? 500 : 3000;
  const rounds = ctx.quick ? 3 : 5;
  const roundMs = ctx.quick ? 2000 : 4000;
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(`${tmpdir()}/perf-pglite-`);
  const database = await pgliteCorpus(dir, n);
  const service = await startService(database, undefined);
  const queries = pathologicalQueries().map(([, q]) => path(q));
  const health = client();
  const searchers = [client(), client(), client()];
  try {
    const healthP99: number[] = [];
    const searchTimes: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const until = performance.now() + roundMs;
      const loops = searchers.map(async (s, k) => {
        for (let i = k; performance.now() < until; i++)
          searchTimes.push(await s.get(service.base, queries[i % queries.length]!));
      });
      const probes: number[] = [];
      while (performance.now() < until) {
        probes.push(await health.get(service.base, '/health'));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await Promise.all(loops);
      healthP99.push(percentile(probes, 99));
    }
    const o = roundsOf(healthP99, 'figure');
    return {
      scenario: `search.pathological /health while searching (PGlite, ${n} articles of ~12 KB)`,
      figure: o.median,
      unit: 'ms p99',
      budget: `p99 <= ${HEALTH_P99_MS} ms`,
      rounds: o,
      pass: o.median <= HEALTH_P99_MS,
      notes: `three clients sending the ${queries.length} pathological queries without pause, /health every 20 ms; rounds ${rounds}×${roundMs / 1000} s, p99 spread ${o.min}–${o.max} ms; the searches themselves p50 ${round2(percentile(searchTimes, 50))} / p99 ${round2(percentile(searchTimes, 99))} ms (${searchTimes.length}); ${await loadNote()}`,
    };
  } finally {
    health.close();
    for (const s of searchers) s.close();
    await service.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function run(ctx: BenchContext): Promise<BenchResult[]> {
  const results: BenchResult[] = [await onPglite(ctx)];
  if (!ctx.databaseUrl)
    results.push({
      scenario: 'search.pathological (PostgreSQL)',
      figure: NaN,
      unit: '',
      budget: 'runs',
      rounds: notRun(),
      pass: false,
      notes: 'skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL',
    });
  else results.push(...(await onPostgres(ctx)));
  return results;
}

export const scenarios: Scenario[] = [{ name: 'search.pathological', run }];
