/**
 * similar (issue 24): GET /articles/{id}/similar p99 <= 30 ms on PostgreSQL at 1M articles
 * (10 topics of 100k; each topic's 5,000 newest carry a stored 384-wide vector). Each round asks
 * for 200 articles it has not asked for before, so every answer is computed (the topic's window
 * is kept between calls; the first call of each topic reads it, reported apart). The figure is
 * the median of the rounds' p99, with their spread (bench/types.ts `Rounds`).
 */
import { sql } from 'drizzle-orm';
import type { BenchContext, BenchResult, Scenario } from '../types.js';
import {
  client,
  loadNote,
  overRounds,
  percentile,
  round2,
  scratchDatabase,
  startService,
  type Service,
} from '../perf/perf-support.js';
import type { Db } from '../../src/composition/bench-entry.js';
import { notRun, roundsOf } from '../rounds.js';

const SIMILAR_P99_MS = 30;
const TOPICS = 10;
const WINDOW = 5000;
const DIMENSION = 384;

async function run(ctx: BenchContext): Promise<BenchResult[]> {
  if (!ctx.databaseUrl)
    return [
      {
        scenario: 'similar',
        figure: NaN,
        unit: '',
        budget: 'runs',
        rounds: notRun(),
        pass: false,
        notes: 'skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL',
      },
    ];
  const size = ctx.quick ? 100_000 : 1_000_000;
  const rounds = ctx.quick ? 3 : 5;
  const perRound = 200;
  const scratch = await scratchDatabase(ctx.databaseUrl, 'similar');
  const db = scratch.database.db;
  const service = await startService(scratch.database, scratch.url, {
    EMBEDDING_DIMENSION: String(DIMENSION),
  });
  try {
    const t0 = Date.now();
    const topics = (
      (await db.execute(
        sql`insert into topics (name, slug) select 'Perf ' || g, 'perf-' || g from generate_series(1, ${TOPICS}) g returning id`,
      )) as unknown as { rows: { id: string }[] }
    ).rows.map((r) => r.id);
    const topicArray = `{${topics.join(',')}}`;
    for (let lo = 1; lo <= size; lo += 100_000)
      await db.execute(sql`
        insert into articles (topic_id, source, url, canonical_url, title, normalized_title, summary, scraped_at)
        select (${topicArray}::uuid[])[1 + g % ${TOPICS}], 'Source ' || (g % 40),
               'https://perf.example.test/s/' || g, 'https://perf.example.test/s/' || g,
               'Article ' || g, 'article ' || g, 'Summary of article ' || g,
               timestamptz '2020-01-01' + g * interval '1 minute'
        from generate_series(${lo}::int, ${Math.min(size, lo + 99_999)}::int) g`);
    // the vectors of each topic's window, as the service would have stored them
    await db.execute(sql`
      insert into article_embeddings (article_id, embedding)
      select w.id, (select array_agg(random()::real) from generate_series(1, ${DIMENSION}) d where w.id is not null)
      from topics t,
      lateral (select id from articles a where a.topic_id = t.id order by scraped_at desc, id desc limit ${WINDOW}) w`);
    await db.execute(sql`vacuum analyze articles`);
    await db.execute(sql`vacuum analyze article_embeddings`);
    const build = Math.round((Date.now() - t0) / 1000);

    return await measureSimilar(service, db, { size, rounds, perRound, build });
  } finally {
    await service.close();
    await scratch.drop();
  }
}

/** The calls of the scenario against a built database (every topic's window stored). */
export async function measureSimilar(
  service: Service,
  db: Db,
  opts: { size: number; rounds: number; perRound: number; build: number },
): Promise<BenchResult[]> {
  const { size, rounds, perRound, build } = opts;
  const c = client();
  try {
    const topics = (
      (await db.execute(sql`select id from topics where slug like 'perf-%' order by slug`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows.map((r) => r.id);
    const windowIds = (
      (await db.execute(sql`
        select w.id from topics t,
        lateral (select id from articles a where a.topic_id = t.id order by scraped_at desc, id desc limit ${WINDOW}) w
        order by md5(w.id::text)`)) as unknown as { rows: { id: string }[] }
    ).rows.map((r) => r.id);

    // each topic's first call reads its window
    const firstOfTopic: number[] = [];
    for (const topic of topics) {
      const [one] = (
        (await db.execute(
          sql`select id from articles where topic_id = ${topic} order by scraped_at desc limit 1`,
        )) as unknown as { rows: { id: string }[] }
      ).rows;
      firstOfTopic.push(await c.get(service.base, `/articles/${one!.id}/similar`));
    }
    const p99s: number[] = [];
    const all: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const times: number[] = [];
      for (const id of windowIds.slice(r * perRound, (r + 1) * perRound))
        times.push(await c.get(service.base, `/articles/${id}/similar`));
      p99s.push(percentile(times, 99));
      all.push(...times);
    }
    // the same articles again: answers kept
    const again: number[] = [];
    for (const id of windowIds.slice(0, perRound))
      again.push(await c.get(service.base, `/articles/${id}/similar`));
    const o = roundsOf(p99s, 'figure');
    const first = overRounds(firstOfTopic);
    return [
      {
        scenario: `similar (PostgreSQL, ${size} articles)`,
        figure: o.median,
        unit: 'ms p99',
        budget: `p99 <= ${SIMILAR_P99_MS} ms`,
        rounds: o,
        pass: o.median <= SIMILAR_P99_MS,
        notes: `rounds ${rounds}×${perRound} articles asked for the first time, p99 spread ${o.min}–${o.max} ms, p50 ${round2(percentile(all, 50))} ms; answers kept: p50 ${round2(percentile(again, 50))} / p99 ${round2(percentile(again, 99))} ms; a topic's first call (reads its ${WINDOW} vectors) median ${first.median} ms, spread ${first.spread} ms; build ${build} s; ${await loadNote()}`,
      },
    ];
  } finally {
    c.close();
  }
}

export const scenarios: Scenario[] = [{ name: 'similar', run }];
