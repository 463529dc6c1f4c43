/**
 * Articles area budgets (docs/performance.md): the sorted list at 10k and 1M rows against a raw-SQL floor,
 * the same list collapsed by work at 1M, view tracking against a bare Fastify route, and the 100k-counter view flush. See docs/performance.md.
 * Every figure is the median of rounds (bench/types.ts `Rounds`): the list's measurement runs
 * LIST_ROUNDS times over the same generated tables, the view load VIEW_ROUNDS times, the flush
 * FLUSH_ROUNDS times over the same articles (the counters put back in the cache and the stored counts
 * emptied before each).
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { BenchContext, BenchResult, Scenario } from '../types.js';
import { MemoryCache, RedisCache, rowsOf, type SortOrder } from '../../src/composition/bench-entry.js';
import {
  createBenchDatabase,
  generateArticles,
  makeTopics,
  percentile,
  round,
} from '../articles/bench-db.js';
import { RECENT_FLUSH_SECONDS, closeAgent, httpGet, startBenchApp } from '../articles/bench-app.js';
import { cappedCount, decoratedPage, metricPage, statement } from '../articles/list-sql.js';
import { median, notRun, roundsOf } from '../rounds.js';

const needs = (scenario: string, what: string): BenchResult => ({
  scenario,
  figure: NaN,
  unit: '',
  budget: 'runs',
  rounds: notRun(),
  pass: false,
  notes: `skipped: set ${what}`,
});

/**
 * The statements of one page the API answers (enabled metric keys, the decorated page, the total
 * counted up to 10,000), written out by the bench and sent straight to pg: the floor of the list.
 */
function rawStatements(order: SortOrder, offset: number) {
  return {
    keys: statement(
      () => 'select metric_key from metric_definitions where enabled order by priority, metric_key',
    ),
    page: statement((p) =>
      decoratedPage(
        p,
        metricPage(p, 'true', 'citation_count', order === 'asc' ? 'asc' : 'desc', 20, offset),
        null,
      ),
    ),
    count: statement((p) => cappedCount(p, 'true', 10_000)),
  };
}

interface ListTarget {
  base: string;
  pool: pg.Pool;
}
interface ListStats {
  apiP50: number;
  apiP99: number;
  rawP50: number;
  rawP99: number;
  /** the enabled keys and the page alone, without the total */
  pageP50: number;
}

/** rounds of the list's measurement (each `requests` requests of every target), and of collapse=work's */
const LIST_ROUNDS = 3;

/**
 * Interleaves the targets request by request (API, then its raw floor, then the next target), so a
 * change of machine load during the run hits every figure alike. One round; the first warms up.
 */
async function measureList(targets: ListTarget[], requests: number, first: boolean): Promise<ListStats[]> {
  const combos = Array.from({ length: 10 }, (_, i) => ({
    order: (i % 2 ? 'asc' : 'desc') as SortOrder,
    offset: Math.floor(i / 2) * 20,
  }));
  const raws = combos.map((c) => rawStatements(c.order, c.offset));
  const api = targets.map(() => [] as number[]);
  const raw = targets.map(() => [] as number[]);
  const page = targets.map(() => [] as number[]);
  const warmup = first ? Math.min(200, requests / 5) : 0;
  for (let i = 0; i < requests + warmup; i++) {
    const c = combos[i % combos.length]!;
    const r = raws[i % combos.length]!;
    for (const [k, target] of targets.entries()) {
      let t0 = performance.now();
      const status = await httpGet(
        target.base,
        `/articles?sort=citation_count&order=${c.order}&limit=20&offset=${c.offset}`,
      );
      const tApi = performance.now() - t0;
      if (status !== 200) throw new Error(`GET /articles answered ${status}`);
      t0 = performance.now();
      await target.pool.query(r.keys.sql, r.keys.params);
      await Promise.all([
        target.pool.query(r.page.sql, r.page.params),
        target.pool.query(r.count.sql, r.count.params),
      ]);
      const tRaw = performance.now() - t0;
      t0 = performance.now();
      await target.pool.query(r.keys.sql, r.keys.params);
      await target.pool.query(r.page.sql, r.page.params);
      const tPage = performance.now() - t0;
      if (i >= warmup) {
        api[k]!.push(tApi);
        raw[k]!.push(tRaw);
        page[k]!.push(tPage);
      }
    }
  }
  return targets.map((_, k) => ({
    apiP50: percentile(api[k]!, 50),
    apiP99: percentile(api[k]!, 99),
    rawP50: percentile(raw[k]!, 50),
    rawP99: percentile(raw[k]!, 99),
    pageP50: percentile(page[k]!, 50),
  }));
}

/**
 * Works over the generated articles (issue 28's shape): every 20th article and the next one are
 * two versions of one work (the first one its head), so 10 % of the rows sit in works of two and a
 * collapsed list drops one row in twenty.
 */
async function generateWorks(db: pg.Pool): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`
    with pairs as (
      select a.id as head, b.id as other
      from articles a join articles b on b.url = 'https://bench.example.test/a/' || (split_part(a.url, '/a/', 2)::int + 1)
      where split_part(a.url, '/a/', 2)::int % 20 = 0),
    w as (insert into works (head_article_id) select head from pairs returning id, head_article_id),
    heads as (update articles set work_id = w.id from w where articles.id = w.head_article_id returning w.id, articles.id as head)
    update articles set work_id = heads.id from heads join pairs on pairs.head = heads.head
    where articles.id = pairs.other
    returning 1 as n`);
  await db.query('vacuum analyze articles');
  await db.query('vacuum analyze works');
  return rows.length;
}

/**
 * `collapse=work` against the plain list on the same 1M rows, request by request (the same sort
 * and pages as the list budget): its p99 within the list budget.
 */
async function measureCollapse(base: string, requests: number, first: boolean) {
  const plain: number[] = [];
  const collapsed: number[] = [];
  const warmup = first ? Math.min(200, requests / 5) : 0;
  for (let i = 0; i < requests + warmup; i++) {
    const order = i % 2 ? 'asc' : 'desc';
    const offset = Math.floor((i % 10) / 2) * 20;
    const path = `/articles?sort=citation_count&order=${order}&limit=20&offset=${offset}`;
    for (const [list, suffix] of [
      [plain, ''],
      [collapsed, '&collapse=work'],
    ] as const) {
      const t0 = performance.now();
      const status = await httpGet(base, path + suffix);
      if (status !== 200) throw new Error(`GET /articles${suffix} answered ${status}`);
      if (i >= warmup) list.push(performance.now() - t0);
    }
  }
  return { plain, collapsed };
}

async function listScenario(ctx: BenchContext): Promise<BenchResult[]> {
  if (!ctx.databaseUrl) return [needs('articles.list', 'BENCH_DATABASE_URL or TEST_DATABASE_URL')];
  const [small, large] = ctx.quick ? [2_000, 20_000] : [10_000, 1_000_000];
  const requests = ctx.quick ? 300 : 2000;
  const dbs = [
    await createBenchDatabase(ctx.databaseUrl, 'list_small'),
    await createBenchDatabase(ctx.databaseUrl, 'list_large'),
  ];
  const apps = await Promise.all(dbs.map((d) => startBenchApp(d.database, d.url, new MemoryCache())));
  const pools = dbs.map((d) => new pg.Pool({ connectionString: d.url, max: 4 }));
  try {
    const t0 = Date.now();
    for (const [k, size] of [small, large].entries())
      await generateArticles(dbs[k]!.database, 1, size, await makeTopics(dbs[k]!.database, 10));
    const genSeconds = (Date.now() - t0) / 1000;
    const targets = apps.map((a, k) => ({ base: a.base, pool: pools[k]! }));
    const rounds: { small: ListStats; large: ListStats }[] = [];
    for (let r = 0; r < LIST_ROUNDS; r++) {
      const [atSmall, atLarge] = (await measureList(targets, requests, r === 0)) as [ListStats, ListStats];
      rounds.push({ small: atSmall, large: atLarge });
    }
    const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
    const t1 = Date.now();
    const paired = await generateWorks(pools[1]!);
    const worksSeconds = (Date.now() - t1) / 1000;
    const collapse: { plain: number[]; collapsed: number[] }[] = [];
    for (let r = 0; r < LIST_ROUNDS; r++)
      collapse.push(await measureCollapse(apps[1]!.base, requests, r === 0));
    /** one statistic of one table, median over the rounds */
    const med = (at: 'small' | 'large', k: keyof ListStats) => median(rounds.map((r) => r[at][k]));
    const figures = (at: 'small' | 'large') =>
      `medians of ${LIST_ROUNDS} rounds: api p50 ${round(med(at, 'apiP50'))} / p99 ${round(med(at, 'apiP99'))} ms, raw p50 ${round(med(at, 'rawP50'))} / p99 ${round(med(at, 'rawP99'))} ms`;
    const p99Small = roundsOf(
      rounds.map((r) => r.small.apiP99),
      'figure',
    );
    const p99Large = roundsOf(
      rounds.map((r) => r.large.apiP99),
      'figure',
    );
    // ratios per round (both sides measured in the same round), median over the rounds
    const growth = roundsOf(
      rounds.map((r) => r.large.apiP50 / r.small.apiP50),
      'ratio',
    );
    const apiVsRaw = roundsOf(
      rounds.map((r) => r.large.apiP50 / r.large.rawP50),
      'ratio',
    );
    const collapsed = roundsOf(
      collapse.map((c) => percentile(c.collapsed, 99)),
      'figure',
    );
    const allCollapsed = collapse.flatMap((c) => c.collapsed);
    const allPlain = collapse.flatMap((c) => c.plain);
    return [
      {
        scenario: `articles.list p99 at ${label(small)} (sort=citation_count, 20 rows)`,
        figure: p99Small.median,
        unit: 'ms',
        budget: 'p99 <= 15 ms',
        rounds: p99Small,
        pass: p99Small.median <= 15,
        notes: `${figures('small')}; ${LIST_ROUNDS} rounds of ${requests} requests over loopback HTTP, interleaved with the ${label(large)} ones`,
      },
      {
        scenario: `articles.list p99 at ${label(large)} (sort=citation_count, 20 rows)`,
        figure: p99Large.median,
        unit: 'ms',
        budget: 'p99 <= 15 ms',
        rounds: p99Large,
        pass: p99Large.median <= 15,
        notes: `${figures('large')}; both tables generated in ${round(genSeconds, 1)} s`,
      },
      {
        scenario: `articles.list time at ${label(large)} / at ${label(small)}`,
        figure: round(med('large', 'apiP50')),
        unit: 'ms (p50)',
        floor: round(med('small', 'apiP50')),
        ratio: growth.median,
        budget: 'ratio <= 1.5',
        rounds: growth,
        pass: growth.median <= 1.5,
        notes: `the median of the rounds' ratios; p99 ratio ${round(med('large', 'apiP99') / med('small', 'apiP99'))}`,
      },
      {
        scenario: `articles.list API / raw SQL at ${label(large)}`,
        figure: round(med('large', 'apiP50')),
        unit: 'ms (p50)',
        floor: round(med('large', 'rawP50')),
        ratio: apiVsRaw.median,
        budget: 'ratio <= 1.3',
        rounds: apiVsRaw,
        pass: apiVsRaw.median <= 1.3,
        notes: `the median of the rounds' ratios; floor: the statements that compute the answer (enabled keys, then page and capped count side by side) sent through pg; p99 ratio ${round(med('large', 'apiP99') / med('large', 'rawP99'))}. Above 10,000 matches the API serves the estimated total from its 60-s cache, so warm requests send keys and page only: API / (keys + page through pg) = ${round(med('large', 'apiP50') / med('large', 'pageP50'))} (${round(med('large', 'pageP50'))} ms)`,
      },
      {
        scenario: `articles.list collapse=work p99 at ${label(large)} (sort=citation_count, 20 rows)`,
        figure: collapsed.median,
        unit: 'ms',
        budget: 'p99 <= 15 ms',
        rounds: collapsed,
        pass: collapsed.median <= 15,
        notes: `${paired} works of two versions (1 article in 10; made in ${round(worksSeconds, 1)} s); ${LIST_ROUNDS} rounds of ${requests} requests; over all rounds collapsed p50 ${round(percentile(allCollapsed, 50))} ms against the plain list's p50 ${round(percentile(allPlain, 50))} / p99 ${round(percentile(allPlain, 99))} ms, request by request`,
      },
    ];
  } finally {
    closeAgent();
    for (const p of pools) await p.end();
    for (const a of apps) await a.close();
    for (const d of dbs) await d.drop();
  }
}

interface LoadResult {
  rps: number;
  total: number;
  non2xx: number;
  errors: number;
}

const CONNECTIONS = 50;
/** rounds of the view scenario, each one run of the bare route and one of the view route */
const VIEW_ROUNDS = 5;
let ipBase = 0;

function runLoad(base: string, pathTemplate: string, ids: string[], seconds: number): Promise<LoadResult> {
  const first = ipBase;
  ipBase += 4_000_000;
  return new Promise((resolve, reject) => {
    const child = fork(
      fileURLToPath(new URL('../articles/view-load.ts', import.meta.url)),
      [JSON.stringify({ base, pathTemplate, ids, seconds, connections: CONNECTIONS, ipBase: first })],
      { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    child.once('message', (m) => resolve(m as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => code && reject(new Error(`load generator exited with ${code}`)));
  });
}

async function viewScenario(ctx: BenchContext): Promise<BenchResult[]> {
  if (!ctx.databaseUrl || !ctx.redisUrl)
    return [needs('articles.view throughput', 'BENCH_DATABASE_URL and BENCH_REDIS_URL (or TEST_*)')];
  const seconds = ctx.quick ? 2 : 4;
  const bdb = await createBenchDatabase(ctx.databaseUrl, 'view');
  const prefix = `bench:${randomBytes(4).toString('hex')}:`;
  const cache = new RedisCache(ctx.redisUrl, { keyPrefix: prefix });
  const app = await startBenchApp(bdb.database, bdb.url, cache);
  const bare = Fastify();
  bare.post('/bare/:id', async (_req, reply) => reply.status(204).send());
  await bare.listen({ port: 0, host: '127.0.0.1' });
  try {
    const topics = await makeTopics(bdb.database, 1);
    await generateArticles(bdb.database, 1, 1000, topics);
    const ids = rowsOf<{ id: string }>(await bdb.database.db.execute(sql`select id from articles`)).map(
      (r) => r.id,
    );
    const bareBase = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}`;
    // a short warm-up of each, then rounds of both in turns (bare-view, view-bare, ...): the
    // machine's speed drifts by more than the budget's margin within a minute on a shared VM, and
    // a round's two runs share its state of the moment; the ratio is the median of the rounds'
    await runLoad(bareBase, '/bare/{id}', ids, 1);
    await runLoad(app.base, '/articles/{id}/view', ids, 1);
    await app.container.services.views.flush();
    // views reach the stored count by two ways (the quick move of a just-viewed article's counter,
    // and the full flush): what the rounds counted is what the stored count gained
    const stored = async () =>
      Number(
        rowsOf<{ s: string }>(
          await bdb.database.db.execute(
            sql`select coalesce(sum(view_count), 0)::bigint as s from article_view_counts`,
          ),
        )[0]!.s,
      );
    const before = await stored();
    const rounds: { bare: LoadResult; view: LoadResult }[] = [];
    for (let r = 0; r < VIEW_ROUNDS; r++) {
      const round = {} as { bare: LoadResult; view: LoadResult };
      for (const which of r % 2 ? (['view', 'bare'] as const) : (['bare', 'view'] as const))
        round[which] =
          which === 'bare'
            ? await runLoad(bareBase, '/bare/{id}', ids, seconds)
            : await runLoad(app.base, '/articles/{id}/view', ids, seconds);
      rounds.push(round);
    }
    await new Promise((r) => setTimeout(r, (RECENT_FLUSH_SECONDS + 1) * 1000));
    await app.container.services.views.flush();
    const flushed = { views: (await stored()) - before };
    const ratio = roundsOf(
      rounds.map((r) => r.view.rps / r.bare.rps),
      'ratio',
    );
    const a = {
      rps: median(rounds.map((r) => r.view.rps)),
      total: rounds.reduce((t, r) => t + r.view.total, 0),
      non2xx: rounds.reduce((t, r) => t + r.view.non2xx, 0),
      errors: rounds.reduce((t, r) => t + r.view.errors, 0),
    };
    const b = { rps: median(rounds.map((r) => r.bare.rps)) };
    // every answered view had a fresh address: all are counted (plus at most the ones in flight at the end)
    const exact = flushed.views >= a.total && flushed.views <= a.total + CONNECTIONS * VIEW_ROUNDS;
    return [
      {
        scenario: 'articles.view throughput on Redis vs a bare Fastify route',
        figure: Math.round(a.rps),
        unit: 'req/s',
        floor: Math.round(b.rps),
        ratio: ratio.median,
        budget: 'ratio >= 0.5',
        rounds: ratio,
        pass: ratio.median >= 0.5 && a.non2xx === 0 && a.errors === 0 && exact,
        notes: `autocannon in a child process, ${CONNECTIONS} connections; after a 1 s warm-up ${VIEW_ROUNDS} rounds of ${seconds} s of each route (order alternating), the median of the rounds' ratios (per round: ${rounds.map((r) => (r.view.rps / r.bare.rps).toFixed(2)).join(' ')}); median rates; random article of 1000 and a fresh client address per request; ${a.total} views answered, ${flushed.views} counted; non-2xx ${a.non2xx}, errors ${a.errors}`,
      },
    ];
  } finally {
    await bare.close();
    await app.close();
    for await (const keys of cache.scan('', 1000)) await cache.del(...keys);
    await cache.close();
    await bdb.drop();
  }
}

/** rounds of the flush: each fills the cache's counters again and flushes them */
const FLUSH_ROUNDS = 3;

async function flushScenario(ctx: BenchContext): Promise<BenchResult[]> {
  if (!ctx.databaseUrl) return [needs('articles.view flush', 'BENCH_DATABASE_URL or TEST_DATABASE_URL')];
  const n = ctx.quick ? 10_000 : 100_000;
  const bdb = await createBenchDatabase(ctx.databaseUrl, 'flush');
  const cache = ctx.redisUrl
    ? new RedisCache(ctx.redisUrl, { keyPrefix: `bench:${randomBytes(4).toString('hex')}:` })
    : new MemoryCache();
  // the service's own view counting (the api role's, over the bench's database and cache)
  const app = await startBenchApp(bdb.database, bdb.url, cache);
  try {
    const topics = await makeTopics(bdb.database, 1);
    await generateArticles(bdb.database, 1, n, topics);
    const db = bdb.database.db;
    const ids = rowsOf<{ id: string }>(await db.execute(sql`select id from articles`)).map((r) => r.id);
    const sum = async () =>
      Number(
        rowsOf<{ s: string }>(
          await db.execute(sql`select coalesce(sum(view_count), 0)::bigint as s from article_view_counts`),
        )[0]!.s,
      );
    // each round: the counters put in the cache, the stored counts emptied (so every round's flush
    // inserts its rows, as the first one does), then the timed flush
    const times: number[] = [];
    const tallies: string[] = [];
    let exact = true;
    for (let r = 0; r < FLUSH_ROUNDS; r++) {
      await db.execute(sql`delete from article_view_counts`);
      await db.execute(sql`vacuum article_view_counts`);
      let expected = 0;
      for (let i = 0; i < ids.length; i += 5000) {
        const chunk = ids.slice(i, i + 5000);
        await Promise.all(chunk.map((id, j) => cache.incrBy(`view:${id}`, 1 + ((i + j) % 7))));
        expected += chunk.reduce((s, _, j) => s + 1 + ((i + j) % 7), 0);
      }
      const before = await sum();
      const t0 = performance.now();
      const result = await app.container.services.views.flush();
      times.push(performance.now() - t0);
      const added = (await sum()) - before;
      exact &&= added === expected && result.views === expected && result.articles === ids.length;
      tallies.push(
        `${expected} expected, ${added} added, ${result.views} reported over ${result.articles} articles`,
      );
    }
    const o = roundsOf(times, 'figure', 0);
    return [
      {
        scenario: `articles.view flush of ${n / 1000}k counters into PostgreSQL`,
        figure: o.median,
        unit: 'ms',
        budget: '< 5000 ms, exact totals',
        rounds: o,
        pass: o.median < 5000 && exact,
        notes: `cache ${cache.kind}; ${FLUSH_ROUNDS} rounds (${times.map((t) => Math.round(t)).join(' / ')} ms); views ${tallies.every((t) => t === tallies[0]) ? `each round: ${tallies[0]}` : `per round: ${tallies.join('; ')}`}`,
      },
    ];
  } finally {
    await app.close();
    if (cache.kind === 'redis') for await (const keys of cache.scan('', 1000)) await cache.del(...keys);
    await cache.close();
    await bdb.drop();
  }
}

export const scenarios: Scenario[] = [
  { name: 'articles.list', run: listScenario },
  { name: 'articles.view', run: viewScenario },
  { name: 'articles.flush', run: flushScenario },
];
